// The date a record was read as of, in one wording everywhere (entity pages, graph panels, runsheet,
// report): a release date dates what the records said then. It is not the day a parcel, an account, an
// address or a link began, and the records cannot say it is "still valid" today.
import { formatDay } from '../format-date.ts';

/** "as of the roll released 2017-02-05": an owner of record, read from a tax roll. */
export const asOfRoll = (day: string): string => `as of the roll released ${formatDay(day)}`;

/** "as of the records released 2017-02-05": an entity or a link, read from whichever release the service names. */
export const asOfRecords = (day: string): string => `as of the records released ${formatDay(day)}`;

// Prior sales: the subject's and each chosen comp's earlier transfers with date, price and source, as
// far as the answers hold them; where they hold none, the property says why (OTR keeps only each lot's
// last sale; DC CAMA has no dates).
import type { ComparablesAnalysis, GridProperty } from '../../../shared/comparables/model.ts';
import { CitedCell, type CitationIndex } from './CitedCell.tsx';
import { numeric } from '../../components/table-heading.ts';
import { DetailsSection, PlainTable } from './DetailsSection.tsx';

export function PriorSales({ analysis, index }: { analysis: ComparablesAnalysis; index: CitationIndex }) {
  const subject = analysis.set.subject;
  const properties: Array<{ role: string; property: GridProperty }> = [
    ...(subject ? [{ role: 'Subject', property: subject }] : []),
    ...analysis.chosen.map((comp, at) => ({ role: `Comp ${at + 1}`, property: comp as GridProperty })),
  ];
  return (
    <DetailsSection title="Prior sales" summary="The subject’s and each comp’s earlier transfers, as far as the sample holds them">
      {properties.length === 0 ? (
        <p className="muted">Nothing to show until the subject’s record is bought and comps are chosen.</p>
      ) : (
        <PlainTable label="Prior sales" columns={['Property', 'Date', numeric('Price'), 'Source']}>
          {properties.map(({ role, property }) =>
            property.priorSales.length === 0 ? (
              <tr key={property.id}>
                <th scope="row">
                  {role} <span className="muted">· {property.address}</span>
                </th>
                <td colSpan={3} className="muted">
                  {property.priorSalesNote || 'No earlier transfers in the answers.'}
                </td>
              </tr>
            ) : (
              property.priorSales.map((sale, at) => (
                <tr key={`${property.id}-${at}`}>
                  <th scope="row">{at === 0 ? <>{role} <span className="muted">· {property.address}</span></> : <span className="visually-hidden">{role}</span>}</th>
                  <td>
                    <CitedCell value={sale.date} index={index} />
                  </td>
                  <td className="is-numeric">
                    <CitedCell value={sale.price} index={index} />
                  </td>
                  <td>
                    <CitedCell value={sale.source} index={index} />
                  </td>
                </tr>
              ))
            ),
          )}
        </PlainTable>
      )}
    </DetailsSection>
  );
}

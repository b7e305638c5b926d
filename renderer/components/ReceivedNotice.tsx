// What every view says of answers that came in a workfile: the file's word, not a purchase this Plat
// made. The sentence is the core's (shared/workfile/received.ts); this only shows it.
export function ReceivedNotice({ receivedIn, children }: { receivedIn: string; children?: React.ReactNode }) {
  return (
    <div className="notice notice--warning received-notice" role="note" data-testid="received-notice">
      <p>
        <strong>{receivedIn}.</strong> Not bought by this Plat: the values are only that file’s word until they are re-checked against the service.
      </p>
      {children}
    </div>
  );
}

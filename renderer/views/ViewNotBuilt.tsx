// Said plainly: the view exists in the navigation but has no working screen yet. No fake data.
export function ViewNotBuilt({ label, summary }: { label: string; summary: string }) {
  return (
    <section className="view-not-built" aria-label={`${label} (not built yet)`}>
      <h2>{label} is not built yet</h2>
      <p className="muted">{summary}</p>
      <p className="muted">This view has no working screen in this build, so it shows nothing rather than made-up data.</p>
    </section>
  );
}

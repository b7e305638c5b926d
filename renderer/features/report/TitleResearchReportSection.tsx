// The report's title research, on screen and on paper: the subject's entity graph as a picture (the
// whole graph, with its alt text; "Drawing the graph…" meanwhile, its table alone when it cannot be
// drawn) above its table (every entity, and every link with the rule that made it, its supporting
// records' endnotes, its dates, its confidence and the researcher's decision), the decisions with
// their notes, the owner's portfolio and the parcel's runsheet. An owner's name is a value: wherever
// it is printed its endnote markers follow it.
import type { TitleResearchLink, TitleResearchNode, TitleResearchPortfolio, TitleResearchRunsheet, TitleResearchSection } from '../../../shared/report/document.ts';
import type { CitedValue } from '../../../shared/cited/value.ts';
import { formatDateTime, formatDay } from '../../../shared/format-date.ts';
import { linkTally } from '../../../shared/graph/decisions.ts';
import { ownerNameKey } from '../../../shared/graph/relations.ts';
import { LimitationItem, Markers, ValueDetails, ValueLine, type ValueContext } from './ReportValues.tsx';
import { useGraphImage, type GraphImageState } from './graph-image.ts';
import { MissingLines, PartProblems, ReportPart, ReportSectionFrame } from './ReportSectionFrame.tsx';
import { ReportFigure } from './ReportFigure.tsx';
import './title-research-report.css';
import { numeric, ReportTableFrame } from './ReportTableFrame.tsx';

type Graph = NonNullable<TitleResearchSection['graph']>;

export function TitleResearchReportSection({ section, context, graphImage }: { section: TitleResearchSection; context: ValueContext; graphImage?: GraphImageState }) {
  const nodes = new Map((section.graph?.nodes ?? []).map((node) => [node.id, node]));
  const links = new Map((section.graph?.links ?? []).map((link) => [link.key, link]));
  return (
    <ReportSectionFrame className="report-section report-title" headingId="report-section-title-research" title={section.title} section="title-research">
      <MissingLines lines={section.missing} label="What the title research does not have yet" />
      <PartProblems prefix="report-title" problems={section.problems} label="Read with care" />
      {section.graph && (
        <ReportPart prefix="report-title" id="graph" title="Entity graph">
          {graphImage ? <GraphFigure graph={section.graph} image={graphImage} /> : <DrawnGraphFigure graph={section.graph} />}
          {[...section.graph.caps, ...section.graph.notes].length > 0 && (
            <ul className="report-title__notes" aria-label="What the graph does not show">
              {[...section.graph.caps, ...section.graph.notes].map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
          <EntitiesTable graph={section.graph} context={context} />
          <LinksTable graph={section.graph} nodes={nodes} context={context} />
        </ReportPart>
      )}
      {section.decisions.length > 0 && (
        <ReportPart prefix="report-title" id="decisions" title="The researcher’s decisions">
          <ol className="report-title__decisions">
            {section.decisions.map((decision) => {
              const link = links.get(decision.edgeKey);
              return (
                <li key={decision.edgeKey} className={`report-title__decision report-title__decision--${decision.decision}`}>
                  <DecisionWord decision={decision.decision} />{' '}
                  {link ? <LinkWords link={link} nodes={nodes} context={context} /> : <span>{decision.description} (a link this graph does not hold)</span>}
                  <span className="report-title__note">: {decision.note}</span> <Moment at={decision.at} />
                </li>
              );
            })}
          </ol>
          <CutOff graph={section.graph} nodes={nodes} context={context} />
        </ReportPart>
      )}
      {section.portfolio && <PortfolioPart portfolio={section.portfolio} context={context} />}
      {section.runsheet && <RunsheetPart runsheet={section.runsheet} context={context} />}
    </ReportSectionFrame>
  );
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ---------------------------------------------------------------------------------------------
// The graph: the picture, then its table

/** The graph drawn here (the screen): "Drawing the graph…" until the picture is ready. */
function DrawnGraphFigure({ graph }: { graph: Graph }) {
  const image = useGraphImage(graph.spec);
  return <GraphFigure graph={graph} image={image ?? { status: 'loading' }} />;
}

function GraphFigure({ graph, image }: { graph: Graph; image: GraphImageState }) {
  const tally = linkTally(graph.links.map((link) => ({ strength: link.strength, decision: link.decision?.decision ?? null })));
  const caption = [
    `The whole graph the assignment’s answers hold: ${count(graph.nodes.length, 'entity', 'entities')} and ${tally}.`,
    'The legend is drawn along its foot; the tables below list every entity and link with its sources.',
  ].join(' ');
  return (
    <ReportFigure
      block="report-graph"
      image={image}
      alt={graph.spec.altText}
      loading="Drawing the graph…"
      failed={(message) => (
        <p className="report-graph__failed" role="note">
          The graph could not be drawn here ({message}). Its tables below list every entity and every link it holds.
        </p>
      )}
      caption={caption}
    />
  );
}

/** An entity's name; an owner's with the endnotes of the records that publish it. */
function NodeName({ node, fallback, context }: { node: TitleResearchNode | undefined; fallback: string; context: ValueContext }) {
  if (!node) return <span>{fallback}</span>;
  return (
    <span className="report-title__name">
      {node.label}
      {node.citationIds.length > 0 && <Markers citationIds={node.citationIds} context={context} />}
    </span>
  );
}

function LinkWords({ link, nodes, context }: { link: TitleResearchLink; nodes: ReadonlyMap<string, TitleResearchNode>; context: ValueContext }) {
  return (
    <span className="report-title__link-words">
      <NodeName node={nodes.get(link.fromId)} fallback={link.from} context={context} /> — {link.label} → <NodeName node={nodes.get(link.toId)} fallback={link.to} context={context} />
    </span>
  );
}

function EntitiesTable({ graph, context }: { graph: Graph; context: ValueContext }) {
  return (
    <ReportTableFrame label="The graph’s entities" caption="Entities" className="report-title__entities" columns={['Entity', 'Kind', 'Detail', numeric('Steps from the subject')]}>
      {graph.nodes.map((node) => (
        <tr key={node.id} className={node.cutOff ? 'report-title__row--cut-off' : undefined}>
          <td>
            <NodeName node={node} fallback={node.label} context={context} />
            {node.root && <span className="report-flag">Subject</span>}
            {node.cutOff && <span className="report-flag report-title__flag--cut">Reached only through a cut link</span>}
            {/* An owner's node is Plat's grouping of a name, not a service id: only entities show theirs. */}
            {node.kind !== 'owner' && <span className="report-title__id mono">{node.id}</span>}
          </td>
          <td>{node.kindLabel}</td>
          <td>{node.sublabel}</td>
          <td className="report-num">{node.depth}</td>
        </tr>
      ))}
    </ReportTableFrame>
  );
}

function LinkDates({ link, context }: { link: TitleResearchLink; context: ValueContext }) {
  const { dates } = link;
  // Each date is followed by the markers of the records it was read from.
  const dated = (day: string) => (
    <span className="report-nowrap">
      {formatDay(day)}
      <Markers citationIds={link.citationIds} context={context} />
    </span>
  );
  if (dates.kind === 'none' || dates.from === null) {
    return dates.to === null ? <span className="muted">Not given</span> : <>Until {dated(dates.to)}</>;
  }
  // Both are the release the record was read from: an as-of date, never the day the owner or the link began.
  if (dates.kind === 'owner_as_of') return <>Owner of record as of the roll released {dated(dates.from)}</>;
  return (
    <>
      As of the records released {dated(dates.from)}
      {dates.to === null ? '; no end date given' : <> until {dated(dates.to)}</>}
    </>
  );
}

/** When a decision was made: its day and its time each kept on one line (a narrow column breaks between them, never inside). */
function Moment({ at }: { at: string }) {
  const [day, ...time] = formatDateTime(at).split(' ');
  return (
    <span className="muted">
      (<span className="report-nowrap">{day}</span>
      {time.length > 0 && (
        <>
          {' '}
          <span className="report-nowrap">{time.join(' ')}</span>
        </>
      )}
      )
    </span>
  );
}

function DecisionWord({ decision }: { decision: 'confirmed' | 'cut' }) {
  return <strong className={`report-title__decided report-title__decided--${decision}`}>{decision === 'cut' ? '✕ Cut' : '✓ Confirmed'}</strong>;
}

function LinksTable({ graph, nodes, context }: { graph: Graph; nodes: ReadonlyMap<string, TitleResearchNode>; context: ValueContext }) {
  // What a lead asks of the researcher, each kind once above the table (the rows carry its number).
  const warnings = new Map<string, number>();
  for (const link of graph.links) if (link.warning && !warnings.has(link.warning)) warnings.set(link.warning, warnings.size + 1);
  return (
    <ReportTableFrame
      label="The graph’s links"
      caption="Links, and why each exists"
      className="report-title__links"
      columns={['Link', 'Rule and supporting records', 'Dates', 'Confidence', 'Decision']}
      before={
        warnings.size > 0 && (
          <ol className="report-title__warnings" aria-label="What the leads ask">
            {[...warnings].map(([warning, number]) => (
              <li key={number} value={number}>
                {warning}
              </li>
            ))}
          </ol>
        )
      }
      colgroup={
        <colgroup>
          <col className="report-title__col-link" />
          <col />
          <col className="report-title__col-dates" />
          <col className="report-title__col-confidence" />
          <col className="report-title__col-decision" />
        </colgroup>
      }
    >
      {graph.links.map((link) => (
        <tr key={link.key} data-link={link.key} className={`report-title__row--${link.decision?.decision ?? link.strength}`}>
          <td>
            <LinkWords link={link} nodes={nodes} context={context} />
          </td>
          <td>
            <span className="report-title__rule">{link.ruleLabel}</span>
            <span className={`report-flag report-title__flag--${link.strength}`}>{link.strength === 'lead' ? 'Lead' : 'Fact'}</span>
            {link.warning && <span className="report-title__warning-key"> ({warnings.get(link.warning)})</span>}
            {/* The rule in words, followed (like a value) by the records it rests on. */}
            <ul className="report-section__limitations report-title__why">
              <LimitationItem limitation={{ text: link.because, citationIds: link.citationIds }} context={context} />
            </ul>
          </td>
          <td>
            <LinkDates link={link} context={context} />
          </td>
          <td className="report-nowrap">{link.confidence === null ? <span className="muted">Not given</span> : String(link.confidence)}</td>
          <td>
            {link.decision ? (
              <>
                <DecisionWord decision={link.decision.decision} />
                <span className="report-title__note"> {link.decision.note}</span> <Moment at={link.decision.at} />
              </>
            ) : link.strength === 'lead' ? (
              <span className="report-title__undecided">Not confirmed yet</span>
            ) : (
              <span className="muted">—</span>
            )}
          </td>
        </tr>
      ))}
    </ReportTableFrame>
  );
}

function CutOff({ graph, nodes, context }: { graph: Graph | null; nodes: ReadonlyMap<string, TitleResearchNode>; context: ValueContext }) {
  const off = graph?.nodes.filter((node) => node.cutOff) ?? [];
  if (off.length === 0) return null;
  return (
    <p className="report-title__cut-off">
      Reached from the subject only through a cut link (drawn cut off):{' '}
      {off.map((node, index) => (
        <span key={node.id}>
          {index > 0 && ', '}
          <NodeName node={nodes.get(node.id)} fallback={node.label} context={context} />
        </span>
      ))}
      .
    </p>
  );
}

// ---------------------------------------------------------------------------------------------
// The owner portfolio and the runsheet

/**
 * Why a table's dashes are dashes: each distinct reason once, lettered, under the table (a portfolio
 * of 80 holdings the search answer gives no sale for would otherwise say so 160 times).
 */
function reasonsOf(values: ReadonlyArray<CitedValue | null>): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const value of values) {
    if (value?.status !== 'unavailable') continue;
    const reason = value.limitation ?? 'No source gives it.';
    if (!reasons.has(reason)) reasons.set(reason, String.fromCharCode(97 + (reasons.size % 26)));
  }
  return reasons;
}

/** A table cell's value: compact; an unavailable one is a dash keyed to its reason under the table. */
function CellValue({ value, reasons, context }: { value: CitedValue; reasons: ReadonlyMap<string, string>; context: ValueContext }) {
  if (value.status === 'unavailable') {
    const reason = value.limitation ?? 'No source gives it.';
    return (
      <span className="report-title__none" title={reason}>
        — <span className="report-title__reason-key">({reasons.get(reason)})</span>
      </span>
    );
  }
  return <ValueLine value={value} context={context} />;
}

/** A table cell holding nothing but one value. */
function ValueCell({ className, ...value }: { className?: string; value: CitedValue; reasons: ReadonlyMap<string, string>; context: ValueContext }) {
  return (
    <td className={className}>
      <CellValue {...value} />
    </td>
  );
}

function Reasons({ reasons, label }: { reasons: ReadonlyMap<string, string>; label: string }) {
  if (reasons.size === 0) return null;
  return (
    <ul className="report-title__reasons" aria-label={label}>
      {[...reasons].map(([reason, key]) => (
        <li key={key}>
          <span className="report-title__reason-key">({key})</span> {reason}
        </li>
      ))}
    </ul>
  );
}

function PortfolioPart({ portfolio, context }: { portfolio: TitleResearchPortfolio; context: ValueContext }) {
  const searchedOtherwise = ownerNameKey(portfolio.searched) !== ownerNameKey(portfolio.ownerName);
  const cut = portfolio.holdings.filter((row) => row.cut !== null).length;
  const reasons = reasonsOf(portfolio.holdings.flatMap((row) => [row.address, row.identifier, row.use, row.assessed, row.lastSalePrice, row.lastSaleDate]));
  return (
    <ReportPart prefix="report-title" id="portfolio" title="Owner portfolio" modifier>
      <p className="report-title__lead">
        Holdings of{' '}
        <strong>
          {portfolio.ownerName}
          <Markers citationIds={portfolio.ownerCitationIds} context={context} />
        </strong>
        , the subject’s owner of record, found by a search of owner names{searchedOtherwise ? ` containing “${portfolio.searched}”` : ''}: {portfolio.countText}.
      </p>
      {portfolio.variants.length > 1 && (
        <p className="report-title__variants">
          Published as:{' '}
          {portfolio.variants.map((variant, index) => (
            <span key={variant.published}>
              {index > 0 && ' · '}
              {variant.published}
              <Markers citationIds={variant.citationIds} context={context} /> ({count(variant.count, 'holding')})
            </span>
          ))}
        </p>
      )}
      <ReportTableFrame label="Holdings of the subject’s owner" columns={['Address', portfolio.identifierLabel, 'Use', numeric('Assessed value'), numeric('Last sale price'), 'Last sale date']}>
        {portfolio.holdings.length === 0 ? (
          <tr>
            <td colSpan={6} className="muted">
              No holding of this owner in the pages loaded.
            </td>
          </tr>
        ) : (
          portfolio.holdings.map((row) => (
            <tr key={row.propertyRef} className={row.cut ? 'report-title__row--cut-holding' : row.subject ? 'report-title__row--subject' : undefined}>
              <td>
                <CellValue value={row.address} reasons={reasons} context={context} />
                {row.subject && <span className="report-flag">Subject</span>}
                {row.cut && (
                  <span className="report-title__holding-cut">
                    <DecisionWord decision="cut" /> by the researcher: {row.cut.note}
                  </span>
                )}
              </td>
              <ValueCell className="report-nowrap" value={row.identifier} reasons={reasons} context={context} />
              <ValueCell value={row.use} reasons={reasons} context={context} />
              <ValueCell className="report-num" value={row.assessed} reasons={reasons} context={context} />
              <ValueCell className="report-num" value={row.lastSalePrice} reasons={reasons} context={context} />
              <ValueCell value={row.lastSaleDate} reasons={reasons} context={context} />
            </tr>
          ))
        )}
      </ReportTableFrame>
      <Reasons reasons={reasons} label="Why a holding’s value is a dash" />
      {cut > 0 && (
        <p className="report-title__variants">
          {cut === 1 ? 'One holding published under the name was' : `${cut} holdings published under the name were`} cut by the researcher as another owner’s: listed as the records
          publish them, and counted in the total below.
        </p>
      )}
      <dl className="report-values report-title__total">
        <div className="report-values__row" data-field={portfolio.totalAssessed.field}>
          <dt>Total assessed value</dt>
          <dd>
            <ValueLine value={portfolio.totalAssessed} context={context} />
            <ValueDetails value={portfolio.totalAssessed} context={context} />
          </dd>
        </div>
      </dl>
      {portfolio.otherOwners.length > 0 && (
        <p className="report-title__others">
          The same search found other owners, not in this portfolio:{' '}
          {portfolio.otherOwners.map((owner, index) => (
            <span key={owner.name}>
              {index > 0 && '; '}
              {owner.name}
              <Markers citationIds={owner.citationIds} context={context} /> ({owner.countText})
            </span>
          ))}
          .
        </p>
      )}
      <PartProblems prefix="report-title" problems={portfolio.problems} label="Search pages that could not be read" />
    </ReportPart>
  );
}

function RunsheetPart({ runsheet, context }: { runsheet: TitleResearchRunsheet; context: ValueContext }) {
  const reasons = reasonsOf(runsheet.entries.flatMap((entry) => [entry.date, entry.party, entry.price]));
  return (
    <ReportPart prefix="report-title" id="runsheet" title={`Runsheet of parcel ${runsheet.parcel}`} modifier>
      <p className="report-title__lead muted">Every transfer and ownership record the answers hold for the parcel, in date order: the chain of title only as far as the records go.</p>
      <ReportTableFrame label={`Runsheet of parcel ${runsheet.parcel}`} columns={['Date', 'Event', 'Owner named', numeric('Price'), 'What the record says']}>
        {runsheet.entries.length === 0 ? (
          <tr>
            <td colSpan={5} className="muted">
              No transfer or ownership record of this parcel in the answers.
            </td>
          </tr>
        ) : (
          runsheet.entries.map((entry) => (
            <tr key={entry.key}>
              <ValueCell className="report-nowrap" value={entry.date} reasons={reasons} context={context} />
              <td>
                {entry.eventLabel}
                {entry.conflict && <span className="report-flag report-title__flag--conflict">Conflict</span>}
              </td>
              <ValueCell value={entry.party} reasons={reasons} context={context} />
              <td className="report-num">{entry.price ? <CellValue value={entry.price} reasons={reasons} context={context} /> : <span className="muted">—</span>}</td>
              <td className="report-title__detail">{entry.detail}</td>
            </tr>
          ))
        )}
      </ReportTableFrame>
      <Reasons reasons={reasons} label="Why a runsheet value is a dash" />
      {runsheet.gaps.length > 0 && (
        <ul className="report-section__limitations report-title__gaps" aria-label="What the records do not show">
          {runsheet.gaps.map((gap) => (
            <LimitationItem key={gap.text} limitation={gap} context={context} />
          ))}
        </ul>
      )}
      <PartProblems prefix="report-title" problems={runsheet.problems} label="Answers the runsheet could not use" />
    </ReportPart>
  );
}

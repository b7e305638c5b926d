// An imported assignment's answers came in a workfile: where from, how many the file still stands
// behind, and the offer to buy them again from the service at its price (never automatic). The
// re-check's answer lists what changed, field by field, old → new.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ImportedAnswers as Imported, RecheckResult } from '../../../shared/ipc.ts';
import { formatUsd } from '../../../shared/money.ts';
import { callPlat } from '../../platform/plat.ts';
import { refreshAssignment } from '../../platform/assignment-queries.ts';
import { assignmentsQueryScope } from '../../platform/query-keys.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { ReceivedNotice } from '../../components/ReceivedNotice.tsx';

const answersText = (n: number) => `${n} ${n === 1 ? 'answer' : 'answers'}`;

export function ImportedAnswers({ assignmentId, imported }: { assignmentId: string; imported: Imported }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const recheck = useMutation({
    mutationFn: () => callPlat('recheckImportedAnswers', { assignmentId, confirmed: true }),
    onSettled: () => {
      void refreshAssignment(queryClient, assignmentId);
      void queryClient.invalidateQueries({ queryKey: assignmentsQueryScope });
    },
  });
  const { calls, expectedCostMicroUsd } = imported.recheck;
  // A price not known on this connection is said so, never guessed: the charges tell afterwards.
  const price = expectedCostMicroUsd === null ? 'price not known' : formatUsd(expectedCostMicroUsd);
  return (
    <section className="assignment-imported stack gap-2" aria-label="Answers received in a workfile">
      {imported.answers > 0 ? (
        <ReceivedNotice receivedIn={imported.receivedIn}>
          <p>
            {answersText(imported.answers)} of this assignment came in the file.{' '}
            {calls > 0 && (
              <button type="button" className="button button--primary" disabled={recheck.isPending} onClick={() => setConfirming(true)} data-testid="recheck-imported">
                {recheck.isPending ? 'Re-checking…' : `Re-check against the service (${calls} ${calls === 1 ? 'call' : 'calls'}, ${price})`}
              </button>
            )}
          </p>
        </ReceivedNotice>
      ) : (
        <p className="muted">{imported.receivedIn}. Every answer it brought has since been re-checked against the service and replaced by the answer bought.</p>
      )}
      {recheck.isError && <ErrorNotice error={recheck.error} compact />}
      {recheck.data && <RecheckOutcome result={recheck.data} />}
      <ConfirmDialog
        open={confirming}
        title="Re-check the workfile’s answers"
        tone="primary"
        confirmLabel={expectedCostMicroUsd === null ? 'Buy, price not known' : `Buy for ${price}`}
        onConfirm={() => {
          setConfirming(false);
          recheck.mutate();
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Buying the {calls} {calls === 1 ? 'request' : 'requests'} of the file’s answers again from the service{' '}
          {expectedCostMicroUsd === null ? (
            <>
              costs a <strong>price not known</strong> on this service until it is charged
            </>
          ) : (
            <>
              costs <strong>{price}</strong>
            </>
          )}{' '}
          (charged to this assignment, which becomes the active one). The bought answers replace the file’s, and Plat lists what changed.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function RecheckOutcome({ result }: { result: RecheckResult }) {
  return (
    <div className="assignment-recheck stack gap-2" role="status" data-testid="recheck-outcome">
      <p>
        Re-checked {answersText(result.replaced.length)} for {formatUsd(result.chargedMicroUsd)}.
        {result.remaining > 0 && ` ${answersText(result.remaining)} still came from the file.`}
      </p>
      {result.replaced.map((replaced, index) => (
        <div key={index}>
          <h4>{replaced.label}</h4>
          {replaced.changes.length === 0 ? (
            <p className="muted">The service’s answer says the same as the file.</p>
          ) : (
            <ul className="assignment-recheck__changes">
              {replaced.changes.map((change) => (
                <li key={change.path}>
                  <span className="mono">{change.path}</span>: {change.before} → <strong>{change.after}</strong>
                </li>
              ))}
              {replaced.more > 0 && <li className="muted">and {replaced.more} more changes</li>}
            </ul>
          )}
        </div>
      ))}
      {result.failed.map((failed, index) => (
        <p key={`failed-${index}`} className="notice notice--error">
          {failed.label}: not re-checked. {failed.message}
        </p>
      ))}
    </div>
  );
}

// The answers the graph is drawn from, and the decisions kept with the assignment. Each request is
// priced before it is asked (previewCost): what costs nothing (relationships, connected entities,
// entity records, anything already cached) loads on its own; anything priced waits for its button.
// Held answers stay in TanStack Query's cache under the request's own key, so drawing the graph again
// makes no call.
import { useEffect, useRef } from 'react';
import { useQueries, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { CostPreview, IpcResponse } from '../../../shared/ipc.ts';
import { serviceCallOperations, type ServiceCallIpcName } from '../../../shared/ipc-names.ts';
import type { GraphDecision } from '../../../shared/graph/decisions.ts';
import { useAssignmentRead } from '../../platform/assignment-queries.ts';
import { callPlat } from '../../platform/plat.ts';
import { buyAnswer, paidAnswerQuery } from '../../platform/paid-answer.ts';
import { knownFree } from '../../platform/cost-preview.ts';
import { assignmentQueryKey, graphDecisionsQueryKey, pricingQueryScope, previewCostQueryKey } from '../../platform/query-keys.ts';
import type { CallOptions, ServiceRequestParts } from '../../platform/service-calls.ts';
import type { GraphRequest } from './graph-model.ts';

type AnyParts = ServiceRequestParts<ServiceCallIpcName>;

export interface HeldRequest {
  request: GraphRequest;
  answer: UseQueryResult<IpcResponse<ServiceCallIpcName>>;
  preview: CostPreview | undefined;
}

/** Buys one request of the graph (the person's click, with its confirmation); the answer is kept under its key. */
export function buyGraphRequest(queryClient: QueryClient, request: GraphRequest, options: CallOptions) {
  return buyAnswer(queryClient, request.operation, request.parts as AnyParts, options);
}

/**
 * The answers this session has had the core keep with each assignment (`<assignment>|<request>`): an
 * answer the session held from before the assignment began is asked of the core again (free: its
 * cache) so the assignment keeps it too, and its report can print what the graph showed.
 */
const keptWith = new Set<string>();

/**
 * The held answer and the price of each request; free ones are asked for as soon as their price says
 * so. With an assignment active, a held answer it does not keep yet is asked of the core again when
 * that is free.
 */
export function useGraphAnswers(requests: readonly GraphRequest[], assignmentId: string | null = null): HeldRequest[] {
  const queryClient = useQueryClient();
  const answers = useQueries({ queries: requests.map((request) => paidAnswerQuery(request.operation, request.parts as AnyParts)) });
  const unkept = (request: GraphRequest) => assignmentId !== null && !keptWith.has(`${assignmentId}|${request.key}`);
  const previews = useQueries({
    queries: requests.map((request, index) => ({
      queryKey: previewCostQueryKey(request.operation, request.parts),
      queryFn: () => callPlat('previewCost', { operation: serviceCallOperations[request.operation], request: request.parts as Record<string, unknown> }),
      // Only what is not held yet (or not kept with the assignment yet) needs a price.
      enabled: answers[index]?.data === undefined || unkept(request),
      staleTime: 0,
    })),
  });
  // Each free request is asked once by itself; a failure waits for the person's "Try again".
  const asked = useRef(new Set<string>());
  useEffect(() => {
    requests.forEach((request, index) => {
      const answer = answers[index];
      if (!answer || answer.isFetching || answer.isError) return;
      const keep = assignmentId === null ? null : `${assignmentId}|${request.key}`;
      if (answer.data !== undefined) {
        // Held: asked again only to have the assignment keep it, and only for free.
        if (keep === null || keptWith.has(keep) || asked.current.has(keep)) return;
        if (!knownFree(previews[index]?.data)) return;
        asked.current.add(keep);
        void buyAnswer(queryClient, request.operation, request.parts as AnyParts, {}, { askCore: true }).then((kept) => {
          if (kept) keptWith.add(keep);
        });
        return;
      }
      if (asked.current.has(request.key)) return;
      if (!knownFree(previews[index]?.data)) return;
      asked.current.add(request.key);
      if (keep !== null) asked.current.add(keep);
      void buyGraphRequest(queryClient, request, {}).then((kept) => {
        if (kept && keep !== null) keptWith.add(keep);
      });
    });
  });
  return requests.map((request, index) => ({ request, answer: answers[index] as HeldRequest['answer'], preview: previews[index]?.data }));
}

/** Whether every one of these requests costs nothing now (asked of the core, not guessed). */
export async function allFree(queryClient: QueryClient, requests: readonly GraphRequest[]): Promise<boolean> {
  const previews = await Promise.all(
    requests.map((request) =>
      queryClient.fetchQuery({
        queryKey: previewCostQueryKey(request.operation, request.parts),
        queryFn: () => callPlat('previewCost', { operation: serviceCallOperations[request.operation], request: request.parts as Record<string, unknown> }),
        staleTime: 0,
      }),
    ),
  ).catch(() => null);
  return previews !== null && previews.every(knownFree);
}

// ---------------------------------------------------------------------------------------------
// Decisions

export function useGraphDecisions(assignmentId: string | null) {
  return useAssignmentRead(assignmentId, graphDecisionsQueryKey, (id) => callPlat('getGraphDecisions', { assignmentId: id }), { staleTime: 0 });
}

/**
 * Confirms or cuts a link with its note, or withdraws the decision (null); the decisions as kept.
 * The assignment's page and report are read again: the report prints the decisions.
 */
export async function saveGraphDecision(
  queryClient: QueryClient,
  assignmentId: string,
  edgeKey: string,
  decision: { decision: GraphDecision['decision']; note: string } | null,
): Promise<GraphDecision[]> {
  const { decisions } = await callPlat('setGraphDecision', { assignmentId, edgeKey, decision });
  queryClient.setQueryData(graphDecisionsQueryKey(assignmentId), { decisions });
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: assignmentQueryKey(assignmentId), predicate: (query) => query.queryKey[2] !== 'graph-decisions' }),
    queryClient.invalidateQueries({ queryKey: pricingQueryScope }),
  ]);
  return decisions;
}

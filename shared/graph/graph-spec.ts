// The entity graph as data: what the Graph view draws on screen and the report prints as an image
// beside its table. Built from service answers by pure functions in shared/graph/; drawn by the one
// graph component in renderer/components/graph/ (cytoscape.js), whatever the target.
import { z } from 'zod';

/** What a node stands for. Owners are Plat's: the owner name as published, grouped after normalisation. */
export const graphNodeKinds = ['property', 'parcel', 'unit', 'tax_account', 'address', 'owner', 'building', 'land_interest'] as const;
export type GraphNodeKind = (typeof graphNodeKinds)[number];
export const graphNodeKindLabels: Record<GraphNodeKind, string> = {
  property: 'Property',
  parcel: 'Parcel',
  unit: 'Unit',
  tax_account: 'Tax account',
  address: 'Address',
  owner: 'Owner',
  building: 'Building',
  land_interest: 'Land interest',
};

export const GraphNodeSchema = z.object({
  id: z.string(),
  kind: z.enum(graphNodeKinds),
  /** What a person recognises: the address, the SSL, the account number, the owner name. */
  label: z.string(),
  /** A second line: the kind and a short detail ("Parcel · SSL 0065 0007"). */
  sublabel: z.string(),
  /** The root the graph was opened from. */
  root: z.boolean(),
  /** Depth from the root (0 for the root). */
  depth: z.number().int().min(0),
  /** The node has neighbours not drawn yet (expand shows them). */
  expandable: z.boolean(),
  /** Drawn inside this open group (a compound node). */
  parent: z.string().optional(),
  /** A group of one owner's holdings (portfolio-groups.ts): how many it holds, and whether it is open. */
  group: z.object({ holdings: z.number().int().min(0), entities: z.number().int().min(0), open: z.boolean() }).optional(),
});
export type GraphNode = z.infer<typeof GraphNodeSchema>;

/** How sure a link is: see GraphEdgeSchema. */
export const linkStrengths = ['fact', 'lead'] as const;
export type LinkStrength = (typeof linkStrengths)[number];

/** The researcher's decisions on a link (decisions.ts keeps them). */
export const graphDecisionKinds = ['confirmed', 'cut'] as const;
export type GraphDecisionKind = (typeof graphDecisionKinds)[number];

/** `fact`: the records themselves link the two (same record, same SSL, same account). `lead`: Plat or the service inferred it (same owner name after normalisation, an address match) — to be confirmed. */
export const GraphEdgeSchema = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  /** Reads in the direction drawn, source → target ("taxed under", "located on", "owned by"). */
  label: z.string(),
  strength: z.enum(linkStrengths),
  /** The researcher's decision, drawn on the edge. */
  decision: z.enum(graphDecisionKinds).nullable(),
  confidence: z.number().min(0).max(1).nullable(),
  /** The label is the service's predicate as published: Plat has no words for it (the legend says so once). */
  notRecognised: z.boolean().optional(),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;

export const GraphSpecSchema = z.object({
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
  /** `layered` for parcel → account → owner chains; `force` for portfolios (one owner, many holdings). */
  layout: z.enum(['layered', 'force']),
  /** The graph in words, for the image's alt text and screen readers. */
  altText: z.string(),
});
export type GraphSpec = z.infer<typeof GraphSpecSchema>;

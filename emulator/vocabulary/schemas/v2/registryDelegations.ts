/**
 * Request and response shapes of /api/v2/registries/delegations (the reference's
 * CreateDelegationRequest, EcrDelegation, ListDelegationsResponse). `dockerRegistryUri` is
 * declared, as the reference has it, and never sent: the emulator hosts no registry to log in to.
 */
import { z } from "zod";

export const CreateDelegationRequest = z.strictObject({
  /** The image's resource name (management/registryDelegations.ts gives the form). */
  resource: z.string().min(1),
  name: z.string().nullable().optional(),
});
export type CreateDelegationRequest = z.infer<typeof CreateDelegationRequest>;

export const EcrDelegation = z.object({
  id: z.string(),
  name: z.string().nullable().optional(),
  delegatorUserId: z.string(),
  awsUser: z.string(),
  repository: z.string(),
  tag: z.string(),
  awsRegion: z.string(),
  dockerRegistryUri: z.string().optional(),
  createdAt: z.string().meta({ format: "date-time" }),
});
export type EcrDelegation = z.infer<typeof EcrDelegation>;

export const ListDelegationsResponse = z.object({ delegations: z.array(EcrDelegation) });

/** What every v2 handler needs: the shared management context (same store as /v1) and the URLs. */
import type { ManagementContext } from "../context";

export interface V2Context {
  ctx: ManagementContext;
  /** The job API base (…/v2), known once the server listens; endpoints' requestUrls are built on it. */
  serverlessUrl(): string;
}

/** The block every paginated list answer carries next to its array (management-api-v2-today.md 1.2). */
import { z } from "zod";

export const Pagination = z.object({ nextCursor: z.string().nullable(), hasNextPage: z.boolean() });
export type Pagination = z.infer<typeof Pagination>;

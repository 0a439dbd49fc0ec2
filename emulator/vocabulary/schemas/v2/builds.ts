/**
 * Shapes of /api/v2/serverless/{id}/builds and /builds/{buildId} (management-api-v2-today.md 5.3:
 * the `Build` object, "List body `{builds: Build[], pagination}`", limit 1..100). The emulator
 * builds no images from source, so it never has a build to send (emulator README, "v2 operations
 * added: assumptions"); the shapes are declared for its description.
 */
import { z } from "zod";
import { pageQueryOf } from "./requests";
import { Pagination } from "./pagination";

/** PaginationLimitBuilds: "`limit` (builds only) 1–100, default 100". */
export const BUILD_PAGE_LIMIT_MAX = 100;
export const ListBuildsQuery = z.object(pageQueryOf(BUILD_PAGE_LIMIT_MAX));
export type ListBuildsQuery = z.infer<typeof ListBuildsQuery>;

const dateTime = z.string().meta({ format: "date-time" });

export const Build = z.object({
  id: z.string(),
  /** "`PENDING`, `BUILDING`, `UPLOADING`, `TESTING` are live; `COMPLETED`, `FAILED`, `CANCELLED`, `TEST_FAILED` are terminal". */
  status: z.enum(["PENDING", "BUILDING", "UPLOADING", "TESTING", "COMPLETED", "FAILED", "CANCELLED", "TEST_FAILED"]),
  commitHash: z.string().nullable(),
  commitMessage: z.string().nullable(),
  branch: z.string().nullable(),
  commitDate: dateTime.nullable(),
  imageName: z.string().nullable(),
  startedAt: dateTime.nullable(),
  completedAt: dateTime.nullable(),
  error: z.string().nullable(),
});

export const ListBuildsResponse = z.object({ builds: z.array(Build), pagination: Pagination });

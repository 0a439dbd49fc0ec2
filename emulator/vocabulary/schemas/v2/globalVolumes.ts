/**
 * Request and response shapes of /api/v2/global-volumes (management-api-v2-today.md section 4).
 * The bodies hold exactly what the reference defines, `name`, and refuse anything else (422): how
 * a pod or endpoint would mount a global volume is not documented (section 7), so no such field is
 * taken. Schema names are the project's (the reference's pages name none).
 */
import { z } from "zod";
import { Pagination } from "./pagination";

/** "string, 1–191 characters, must contain at least one non-whitespace character" (trimmed by the service afterwards). */
const GlobalVolumeName = z
  .string()
  .min(1)
  .max(191)
  .refine((name) => name.trim() !== "", "must contain at least one non-whitespace character");

export const CreateGlobalVolumeRequest = z.strictObject({ name: GlobalVolumeName });
export type CreateGlobalVolumeRequest = z.infer<typeof CreateGlobalVolumeRequest>;

/** "body `{name?}`; at least one field, empty body rejected". */
export const UpdateGlobalVolumeRequest = z
  .strictObject({ name: GlobalVolumeName.optional() })
  .refine((body) => body.name !== undefined, "send name (at least one field; an empty body changes nothing)");
export type UpdateGlobalVolumeRequest = z.infer<typeof UpdateGlobalVolumeRequest>;

export const GlobalVolume = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string().meta({ format: "date-time" }),
  createdByUserId: z.string().nullable(),
});
export type GlobalVolume = z.infer<typeof GlobalVolume>;

export const ListGlobalVolumesResponse = z.object({ globalVolumes: z.array(GlobalVolume), pagination: Pagination });

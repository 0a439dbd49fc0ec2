/** Container registry auth request body (there is no update). */
import { z } from "zod";
import { requiredName } from "./common";

export const ContainerRegistryAuthCreateInput = z.strictObject({
  name: requiredName,
  password: z.string().min(1),
  username: z.string().min(1),
});
export type ContainerRegistryAuthCreateInput = z.infer<typeof ContainerRegistryAuthCreateInput>;

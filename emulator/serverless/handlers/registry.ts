/**
 * Picks the handler for an endpoint from its template's imageName: a user module when
 * options.handlers maps the image (exact name first, then the name without its tag), else the
 * built-in default handler. One handler instance per module path, shared by all endpoints using it.
 */
import { defaultHandler } from "./default";
import type { JobHandler } from "./types";
import { userModuleHandler } from "./userModule";

/** The module options.handlers maps `imageName` to: the exact name first, then the name without its tag. */
export function modulePathFor(map: Record<string, string>, imageName: string): string | undefined {
  return map[imageName] ?? map[untagged(imageName)];
}

/** The image name without its tag (`repo/img:1.0` -> `repo/img`). */
function untagged(imageName: string): string {
  return imageName.replace(/:[^/:@]+$/, "");
}

/** Whether `imageName` is in `images` (exact, or without its tag). */
export function imageListed(images: readonly string[], imageName: string): boolean {
  return images.includes(imageName) || images.includes(untagged(imageName));
}

export class HandlerRegistry {
  private readonly loaded = new Map<string, JobHandler>();

  constructor(private readonly map: Record<string, string>) {}

  handlerFor(imageName: string): JobHandler {
    const modulePath = modulePathFor(this.map, imageName);
    if (modulePath === undefined) return defaultHandler;
    let h = this.loaded.get(modulePath);
    if (!h) {
      h = userModuleHandler(imageName, modulePath);
      this.loaded.set(modulePath, h);
    }
    return h;
  }
}

/**
 * Picks the handler for an endpoint from its template's imageName: a user module when
 * options.handlers maps the image (exact name first, then the name without its tag), else the
 * built-in default handler. One handler instance per module path, shared by all endpoints using it.
 */
import { lookupByImage } from "../images";
import { defaultHandler } from "./default";
import type { JobHandler } from "./types";
import { userModuleHandler } from "./userModule";

export class HandlerRegistry {
  private readonly loaded = new Map<string, JobHandler>();

  constructor(private readonly map: Record<string, string>) {}

  handlerFor(imageName: string): JobHandler {
    const modulePath = lookupByImage(this.map, imageName);
    if (modulePath === undefined) return defaultHandler;
    let h = this.loaded.get(modulePath);
    if (!h) {
      h = userModuleHandler(imageName, modulePath);
      this.loaded.set(modulePath, h);
    }
    return h;
  }
}

/**
 * Resources that exist but are not listed yet: the service's scheduler may take a while before a
 * new resource shows in its lists, while a GET by its id already finds it (the fault `hidden=P@D`,
 * emulator/faults). Every list of both surfaces (pods, endpoints, templates, network volumes,
 * registry credentials, secrets) reads its items through `listed`; lookups by id do not.
 *
 * Kept in memory only, beside the records rather than in them: the state file never holds it, and
 * after a restart everything is listed (the delay is seconds, a restart forgets it).
 */
export class ListVisibility {
  /** Resource id -> when it shows in lists (performance.now(), real time like the other faults' delays). */
  private readonly hiddenUntil = new Map<string, number>();

  /** Keeps `id` out of every list for `delayMs` (real time) from now. */
  hide(id: string, delayMs: number): void {
    this.hiddenUntil.set(id, performance.now() + delayMs);
  }

  /** Whether `id` shows in lists now. */
  isListed(id: string): boolean {
    if (this.hiddenUntil.size === 0) return true;
    const until = this.hiddenUntil.get(id);
    if (until === undefined) return true;
    if (until > performance.now()) return false;
    this.hiddenUntil.delete(id);
    return true;
  }

  /** `items` without those still hidden; `items` itself when nothing is (the usual case costs nothing). */
  listed<T extends { id: string }>(items: Iterable<T>): Iterable<T> {
    if (this.hiddenUntil.size === 0) return items;
    return Array.from(items).filter((item) => this.isListed(item.id));
  }
}

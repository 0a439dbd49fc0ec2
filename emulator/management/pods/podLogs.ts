/**
 * Each pod's log, as getPodLogs streams it. The emulator runs no containers, so a pod's log is
 * what the emulator knows of it: its boots and status changes (source `system`: "host
 * lifecycle/userlogs stream", LogSource) and what a test writes into it (`writePodLog`, source
 * `container` by default). Kept in memory only (not in the state file), from the pod's create to
 * its delete, LOG_RING_LINES lines each (logs/logRing.ts).
 */
import type { Clock } from "../../clock";
import { LogRing, type LogSource } from "../../logs/logRing";
import type { PodRecord } from "../../state/model";

export class PodLogs {
  private readonly logs = new Map<string, LogRing>();

  constructor(private readonly clock: Clock) {}

  /** The pod's log, made on first use. */
  of(podId: string): LogRing {
    let log = this.logs.get(podId);
    if (!log) {
      log = new LogRing(() => this.clock.now());
      this.logs.set(podId, log);
    }
    return log;
  }

  /** The pod's log if it has one (a pod restored from the state file has none until it boots). */
  find(podId: string): LogRing | undefined {
    return this.logs.get(podId);
  }

  /** The pod was deleted: its log goes with it. */
  drop(podId: string): void {
    this.logs.delete(podId);
  }

  /** A boot began (create, start, restart, reset): its status lines, the later ones shown when their time comes. */
  booted(pod: PodRecord, bootDelayMs: number): void {
    const boot = pod.boot;
    if (!boot) return;
    const log = this.of(pod.id);
    const startMs = boot.readyAtMs - bootDelayMs;
    const compute = pod.gpuTypeId !== null ? `${pod.gpuCount}x ${pod.gpuTypeId}` : `${pod.vcpuCount} vCPU ${pod.cpuFlavorId ?? ""}`.trim();
    log.write(
      "system",
      `status PROVISIONING: ${pod.lastStatusChange || "booting"}; ${compute} in ${pod.dataCenterId}, image ${pod.imageName}`,
    );
    const failsAt = boot.failsAtMs ?? Number.POSITIVE_INFINITY;
    const later: { source: LogSource; line: string; atMs: number }[] = [
      { source: "system", line: `status STARTING: pulling ${pod.imageName} and starting the container`, atMs: startMs + bootDelayMs / 2 },
      { source: "system", line: "status RUNNING: the container is running", atMs: boot.readyAtMs },
    ];
    log.schedule(later.filter((l) => l.atMs < failsAt));
  }

  /** The pod stopped (`verb`: Exited, Terminated, ...): a boot's later lines will not come. */
  stopped(pod: PodRecord, verb: string): void {
    const log = this.of(pod.id);
    log.schedule([]);
    log.write("system", `status EXITED: ${verb.toLowerCase()}`);
  }

  /** The pod's container failed (a pod fault or the test hook failPod). */
  failed(pod: PodRecord, reason: string): void {
    this.of(pod.id).write("system", `status ERROR: ${reason}`);
  }
}

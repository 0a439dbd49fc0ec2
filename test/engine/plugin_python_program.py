"""The Python side of test/engine/plugin-python.test.ts.

A Python program, run inline through Pulumi's Python automation API, that uses the generated SDK
(pulumi_gpucloud, sdks/python) and so the provider plugin: a template, a serverless endpoint on it,
a pod and a lookup; on the v2 API also the reads a deploy needs (the endpoint's workers and
releases, the pod's log, the public templates, the pod's and the account's billing), exported with
the Python type of each whole number they hold. It previews, deploys, previews again expecting no changes, reports, waits for
the test to have looked at the emulator, destroys and reports again.

Usage: python plugin_python_program.py <settings.json>
The settings (written by the test): workDir, projectName, stackName, cliRoot (the directory holding
bin/pulumi), env (the CLI's environment: backend, passphrase, PULUMI_HOME, PATH...), pluginDir,
api ("v1" or "v2"), config (stack config: {key: {value, secret}}), tag (makes names unique),
engineLog (a file for everything the engine prints).

Reports: one line per step on stdout, `@@report <json>`. After the "deployed" report it reads one
line from stdin before it destroys. Anything else it prints goes to stderr.
"""

import json
import os
import sys
import time

import pulumi
import pulumi.automation as auto
import pulumi_gpucloud as gpucloud
import yaml

REPORT = "@@report "


def report(step, **fields):
    print(REPORT + json.dumps({"step": step, **fields}), flush=True)


def write_project(settings):
    """Python's ProjectSettings has no `plugins`: the project file names the plugin's directory itself."""
    project = {
        "name": settings["projectName"],
        "runtime": "python",
        "backend": {"url": settings["env"]["PULUMI_BACKEND_URL"]},
        "plugins": {"providers": [{"name": "gpucloud", "path": settings["pluginDir"]}]},
    }
    with open(os.path.join(settings["workDir"], "Pulumi.yaml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(project, f, sort_keys=False)


def make_program(api, tag):
    def program():
        template = gpucloud.Template(
            "worker",
            name=f"worker-{tag}",
            image_name="ghcr.io/acme/worker:1",
            is_serverless=True,
            env={"MODEL": "m", "TOKEN": pulumi.Output.secret(f"template-token-{tag}")},
        )
        endpoint = gpucloud.Endpoint(
            "inference",
            template_id=template.id,
            # On v2 an endpoint follows its template's revision when given it.
            template_revision=template.revision if api == "v2" else None,
            gpu_type_ids=["NVIDIA L4"],
            workers_min=0,
            workers_max=1,
        )
        pod = gpucloud.Pod(
            "trainer",
            image_name="ghcr.io/acme/trainer:1",
            gpu_type_ids=["NVIDIA L4"],
            cloud_type="SECURE",
            env={"LOG_LEVEL": "info"},
        )
        looked_up = gpucloud.get_template_output(id=template.id)
        pulumi.export("templateId", template.id)
        pulumi.export("endpointId", endpoint.endpoint_id)
        pulumi.export("podId", pod.id)
        pulumi.export("podImage", pod.image_name)
        pulumi.export("lookedUpImage", looked_up.image_name)
        if api == "v2":
            pulumi.export("reads", reads_of(endpoint, pod))

    return program


def reads_of(endpoint, pod):
    """The v2 reads, each from its resource's id, as one exported dict the test checks value by value."""
    workers = gpucloud.get_endpoint_workers_output(endpoint_id=endpoint.id)
    releases = gpucloud.get_endpoint_releases_output(endpoint_id=endpoint.id)
    log = gpucloud.get_pod_log_output(pod_id=pod.id, lines=5, timeout_ms=3000)
    # 1.0 where the SDK types an int: Python does not check it, and the wire carries every number as a double.
    pod_bill = gpucloud.get_pod_billing_output(pod_id=pod.id, bucket_size="hour", last_n=1.0)
    templates = gpucloud.get_public_templates()
    # After the pod exists: billing is sparse, an account with nothing yet has no bucket.
    account = pod.id.apply(lambda _: gpucloud.get_account_billing(bucket_size="year", last_n=1))

    def summary(results):
        w, r, l, b, a = results
        # The schema's integers arrive as Python ints (the wire's doubles converted by the SDK's types).
        whole = {
            "endpointVersion": w.endpoint_version,
            "summaryTotal": w.summary.total,
            "releaseVersion": r.releases[0].version,
            "rolloutTotal": r.rollout.workers_total,
            "percentOnLatest": r.rollout.percent_on_latest,
            "droppedLines": l.dropped_lines,
            "recordCount": b.metadata.record_count,
            "uniquePodCount": b.metadata.unique_pod_count,
            "templateDisk": next(t.disk for t in templates.templates if t.disk is not None),
        }
        return {
            "workerCount": len(w.workers),
            "releaseCount": len(r.releases),
            "logUrl": l.url,
            "logSources": sorted({line.source for line in l.lines}),
            "podBillPodId": b.metadata.query.pod_id,
            "podBillRecordPodIds": sorted({record.pod_id for record in b.records}),
            "accountBuckets": len(a.records),
            "accountPodGpuAmount": a.records[0].pod_gpu_amount if a.records else None,
            "accountPodGpuAmountType": type(a.records[0].pod_gpu_amount).__name__ if a.records else None,
            "publicTemplateIds": [t.id for t in templates.templates],
            "whole": whole,
            "wholeTypes": {name: type(value).__name__ for name, value in whole.items()},
        }

    return pulumi.Output.all(workers, releases, log, pod_bill, account).apply(summary)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        settings = json.load(f)
    write_project(settings)
    log = open(settings["engineLog"], "a", encoding="utf-8")

    def on_output(line):
        log.write(line + "\n")
        log.flush()

    times = {}

    def timed(label, run):
        started = time.monotonic()
        try:
            return run()
        finally:
            times[label] = round(time.monotonic() - started, 1)

    stack = timed(
        "stack",
        lambda: auto.create_or_select_stack(
            stack_name=settings["stackName"],
            project_name=settings["projectName"],
            program=make_program(settings["api"], settings["tag"]),
            opts=auto.LocalWorkspaceOptions(
                work_dir=settings["workDir"],
                pulumi_home=settings["env"]["PULUMI_HOME"],
                env_vars=settings["env"],
                pulumi_command=auto.PulumiCommand(root=settings["cliRoot"]),
            ),
        ),
    )
    stack.set_all_config({key: auto.ConfigValue(c["value"], secret=c.get("secret", False)) for key, c in settings["config"].items()})

    planned = timed("preview", lambda: stack.preview(on_output=on_output))
    up = timed("up", lambda: stack.up(on_output=on_output))
    unchanged = timed("preview (no changes)", lambda: stack.preview(expect_no_changes=True, on_output=on_output))
    deployment = stack.export_stack().deployment or {}
    report(
        "deployed",
        planned=planned.change_summary,
        upResult=up.summary.result,
        upChanges=up.summary.resource_changes,
        outputs={name: {"value": o.value, "secret": o.secret} for name, o in up.outputs.items()},
        unchanged=unchanged.change_summary,
        types=sorted(r["type"] for r in deployment.get("resources", [])),
        times=times,
    )

    sys.stdin.readline()  # the test has looked at the emulator's records
    destroyed = timed("destroy", lambda: stack.destroy(on_output=on_output))
    stack.workspace.remove_stack(settings["stackName"])
    report("destroyed", result=destroyed.summary.result, changes=destroyed.summary.resource_changes, times=times)


if __name__ == "__main__":
    main()

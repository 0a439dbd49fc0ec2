"""The Python side of test/engine/policy-pack-python.test.ts.

A Python program, run inline through Pulumi's Python automation API, that declares a template and a
pod with the generated SDK (pulumi_gpucloud), so through the provider plugin (`gpucloud:index:*`),
and previews it twice with this package's policy pack: once with a policy config it meets, once
with one it breaks. Nothing is deployed.

Usage: python policy_pack_python_program.py <settings.json>
The settings (written by the test): workDir, projectName, stackName, cliRoot, env, pluginDir,
config (stack config), tag, engineLog, policyPack (the pack's folder), compliantConfig and
violatingConfig (policy config files).

Reports one line on stdout, `@@report <json>`, step "previewed": each preview's outcome, change
summary and output.
"""

import json
import os
import sys

import pulumi.automation as auto
import pulumi_gpucloud as gpucloud
import yaml

REPORT = "@@report "


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


def make_program(tag):
    def program():
        gpucloud.Template(
            "worker",
            name=f"worker-{tag}",
            image_name="ghcr.io/acme/worker:1",
            is_serverless=True,
            env={"MODEL": "m"},
        )
        gpucloud.Pod(
            "trainer",
            name=f"trainer-{tag}",
            image_name="ghcr.io/acme/trainer:1",
            gpu_type_ids=["NVIDIA L4"],
            cloud_type="SECURE",
            env={"LOG_LEVEL": "info"},
        )

    return program


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        settings = json.load(f)
    write_project(settings)
    log = open(settings["engineLog"], "a", encoding="utf-8")
    lines = []

    def on_output(line):
        lines.append(line)
        log.write(line + "\n")
        log.flush()

    stack = auto.create_or_select_stack(
        stack_name=settings["stackName"],
        project_name=settings["projectName"],
        program=make_program(settings["tag"]),
        opts=auto.LocalWorkspaceOptions(
            work_dir=settings["workDir"],
            pulumi_home=settings["env"]["PULUMI_HOME"],
            env_vars=settings["env"],
            pulumi_command=auto.PulumiCommand(root=settings["cliRoot"]),
        ),
    )
    stack.set_all_config({key: auto.ConfigValue(c["value"], secret=c.get("secret", False)) for key, c in settings["config"].items()})

    def preview(config_file):
        lines.clear()
        try:
            result = stack.preview(
                policy_packs=[settings["policyPack"]], policy_pack_configs=[config_file], on_output=on_output
            )
            return {"result": "succeeded", "changes": result.change_summary, "output": "\n".join(lines)}
        except auto.errors.CommandError as error:
            return {"result": "failed", "output": "\n".join(lines) + "\n" + str(error)}

    compliant = preview(settings["compliantConfig"])
    violating = preview(settings["violatingConfig"])
    print(REPORT + json.dumps({"step": "previewed", "compliant": compliant, "violating": violating}), flush=True)


if __name__ == "__main__":
    main()

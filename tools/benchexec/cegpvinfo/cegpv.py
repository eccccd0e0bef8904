# BenchExec tool-info module for cegpv (https://github.com/sosy-lab/benchexec).
#
# Use it with BenchExec's --tool-directory pointing at the project root (the
# executable is bin/cegpv) and this directory on PYTHONPATH, naming the tool
# "cegpvinfo.cegpv" in a benchmark definition (a tool-info module outside
# benchexec.tools is named by its qualified module name), e.g.
#   PYTHONPATH=tools/benchexec benchexec --tool-directory . tools/benchexec/smoke.xml
# (make benchexec-smoke). cegpv prints the verdict in SV-COMP's words as the
# last line of its output: "TRUE (...)", "FALSE(unreach-call) property ID",
# "FALSE(unwinding-assertion) property ID" (with --unwinding-assertions: a
# run reaches a loop bound, which says nothing about unreach-call: unknown),
# "FALSE(no-overflow) property ID" (with --signed-overflow-check) or
# "UNKNOWN: reason"; its exit codes are 0 TRUE, 10 FALSE, 5 UNKNOWN,
# 6 input rejected, 7 property not checked.

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import (
    ILP32,
    LP64,
    get_data_model_from_task,
)


class Tool(benchexec.tools.template.BaseTool2):
    """cegpv: counter-example guided program verification of concurrent C."""

    def executable(self, tool_locator):
        return tool_locator.find_executable("cegpv", subdir="bin")

    def version(self, executable):
        # "cegpv --version" prints the module version, e.g. v0.0.0-2026...
        return self._version_from_tool(executable, "--version").lstrip("v")

    def name(self):
        return "cegpv"

    def project_url(self):
        return "https://cegpv.dev"

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "verify"]
        if task.property_file:
            cmd += ["--propertyfile", task.property_file]
        model = get_data_model_from_task(task, {ILP32: "--32", LP64: "--64"})
        if model and "--32" not in options and "--64" not in options:
            cmd.append(model)
        limit = rlimits.walltime or rlimits.cputime
        if limit and not any(o.startswith("--timeout") for o in options):
            # a little under BenchExec's limit, so that cegpv stops its
            # engines itself and says UNKNOWN with the reason
            cmd += ["--timeout", "%ds" % max(1, int(limit * 0.95))]
        files = list(task.input_files_or_identifier)
        if len(files) > 1:
            raise benchexec.tools.template.UnsupportedFeatureException(
                "cegpv checks one C file at a time"
            )
        return cmd + list(options) + files

    def determine_result(self, run):
        last = ""
        for line in reversed(run.output):
            if line.strip():
                last = line.strip()
                break
        if last.startswith("FALSE(unreach-call)"):
            return result.RESULT_FALSE_REACH
        if last.startswith("TRUE"):
            return result.RESULT_TRUE_PROP
        if last.startswith("FALSE(no-overflow)"):
            return result.RESULT_FALSE_OVERFLOW
        if last.startswith("FALSE(unwinding-assertion)"):
            return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if last.startswith("UNKNOWN"):
            if run.exit_code and run.exit_code.value == 6:
                return "ERROR (unsupported input)"
            return result.RESULT_UNKNOWN
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # e.g. identifier "stats: " returns the rest of cegpv's stats line
        for line in output:
            if line.startswith(identifier):
                return line[len(identifier) :].strip()
        return None

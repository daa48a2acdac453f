"""What a target's tests ask of the worker that runs them, by target platform."""

def exec_properties():
    """Remote Execution properties for a test target: a pool matches them to pick a worker,
    an ARM host when the target platform is aarch64 (//platforms:linux_aarch64)."""
    return select({
        "//platforms:is_aarch64": {"OSFamily": "Linux", "Arch": "aarch64"},
        "//conditions:default": {"OSFamily": "Linux", "Arch": "x86_64"},
    })

def _properties_file_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    lines = ["%s=%s" % (k, ctx.attr.properties[k]) for k in sorted(ctx.attr.properties)]
    ctx.actions.write(out, "\n".join(lines) + "\n")
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

# Writes a string dict as KEY=VALUE lines: platforms_test reads exec_properties()'s choice.
properties_file = rule(
    implementation = _properties_file_impl,
    attrs = {"properties": attr.string_dict()},
)

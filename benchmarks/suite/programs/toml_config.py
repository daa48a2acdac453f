"""TOML: configuration documents read with tomllib, 3.11's pure-Python TOML parser (tables,
arrays of tables, inline tables, dates, multi-line strings), then validated, as a project's
tooling reads its pyproject files."""
import tomllib

import harness


def document(k):
    deps = ",\n".join('  "pkg%d>=%d.%d"' % (i, i % 4, (i * k) % 10) for i in range(12))
    servers = "\n".join("""
[[servers]]
name = "node-%d"
address = { host = "10.0.%d.%d", port = %d }
roles = ["web", "%s"]
started = 2026-11-%02dT08:30:00Z
""" % (i, k, i, 8000 + i, "db" if i % 2 else "cache", i + 1) for i in range(8))
    return """
[project]
name = "example-%d"
version = "1.%d.0"
description = \"\"\"
A project whose configuration
spans lines.\"\"\"
dependencies = [
%s
]

[tool.settings]
max_line = 100
ratio = 0.75
enabled = true
%s
""" % (k, k, deps, servers)


DOCS = [document(k) for k in range(6)]


def workload():
    ports = 0
    deps = 0
    db = 0
    for text in DOCS:
        data = tomllib.loads(text)
        deps += len(data["project"]["dependencies"])
        for server in data["servers"]:
            ports += server["address"]["port"]
            db += "db" in server["roles"]
        assert data["tool"]["settings"]["max_line"] == 100
    return deps, ports, db


def check(result):
    return None if result == (72, 384168, 24) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("toml_config", workload, check)

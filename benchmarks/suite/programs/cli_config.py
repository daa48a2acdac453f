"""Command lines and configuration files: argparse parsers with subcommands and configparser
files with interpolation, as a tool's start-up and its tests parse them again and again.
Both modules are pure Python."""
import argparse
import configparser

import harness

CONFIG = """
[DEFAULT]
root = /srv/app
level = info

[server]
host = 0.0.0.0
port = 8%(shard)s0
shard = 08
logs = %(root)s/logs

[worker]
threads = 4
queue = %(root)s/queue/%(level)s
"""


def make_parser():
    parser = argparse.ArgumentParser(prog="tool", description="a tool with subcommands")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--config", default="tool.ini")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run jobs")
    run.add_argument("jobs", nargs="+")
    run.add_argument("--retries", type=int, default=3)
    run.add_argument("--dry-run", action="store_true")
    show = sub.add_parser("show", help="show a section")
    show.add_argument("section", choices=["server", "worker"])
    show.add_argument("--format", choices=["text", "json"], default="text")
    return parser


def workload():
    parser = make_parser()
    retries = 0
    for i in range(12):
        args = parser.parse_args(["-vv", "run", "a%d" % i, "b", "--retries", str(i), "--dry-run"])
        retries += args.retries + args.verbose + len(args.jobs)
        shown = parser.parse_args(["show", "worker" if i % 2 else "server", "--format=json"])
        retries += len(shown.section)
    usage = parser.format_help()
    config = configparser.ConfigParser()
    config.read_string(CONFIG)
    port = config.getint("server", "port")
    queue = config.get("worker", "queue")
    keys = sum(len(config[s]) for s in config.sections())
    return retries, len(usage), port, queue, keys


def check(result):
    want = (186, 273, 8080, "/srv/app/queue/info", 10)
    return None if result == want else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("cli_config", workload, check)

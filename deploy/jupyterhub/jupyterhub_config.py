"""JupyterHub for a class: every visitor an anonymous student with their own Voila server of the dashboards.

`jupyterhub -f deploy/jupyterhub/jupyterhub_config.py` (see README.md beside it). A visitor of the
hub's address is logged in as a new user named by a random UUID (tmpauthenticator), their
single-user server is started (jupyter_server_config.py beside this file: Voila's pages of the
dashboards, no code, no terminal, no JupyterLab) and they land on Voila's list of the dashboards.
A server idle for NESSUS_HUB_CULL_AFTER seconds is stopped and its user deleted (the idle culler).

Environment variables (defaults in brackets):
- NESSUS_HUB_IP [all interfaces], NESSUS_HUB_PORT [8000]: where the students connect;
- NESSUS_HUB_API_PORT [8081], NESSUS_PROXY_API_PORT [8001]: the hub's and the proxy's own ports (loopback);
- NESSUS_HUB_DIR [the working directory]: the sqlite database, cookie secret and proxy pid file;
- NESSUS_HUB_SPAWNER [systemd]: `systemd` (systemdspawner: each student a transient system user
  under their own memory and CPU limits) or `simple` (every server as the hub's own user, no
  limit enforced: for a trial or a test on loopback only);
- NESSUS_HUB_MEM_LIMIT [1G], NESSUS_HUB_CPU_LIMIT [1]: a student's server at most (enforced by
  systemdspawner and kubespawner; LocalProcessSpawner and `simple` only pass them on as
  MEM_LIMIT/CPU_LIMIT);
- NESSUS_HUB_CULL_AFTER [600]: seconds of inactivity before a student's server is stopped;
- NESSUS_HUB_MAX_STUDENTS [0: no cap]: servers running at once; past it a newcomer is told to
  try again in a few minutes (JupyterHub's active_server_limit);
- NESSUS_CHP [~/.cache/nessus/chp/node_modules/.bin/configurable-http-proxy, installed by
  install-proxy.sh, else `configurable-http-proxy` on PATH]: the proxy's command.
"""

# ruff: noqa: F821 (`c` and `get_config` are given by traitlets to a config file)

import os
import sys
from pathlib import Path

c = get_config()
here = Path(__file__).resolve().parent
state = Path(os.environ.get("NESSUS_HUB_DIR") or os.getcwd()).resolve()
cull_after = int(os.environ.get("NESSUS_HUB_CULL_AFTER", "600"))

c.JupyterHub.ip = os.environ.get("NESSUS_HUB_IP", "")
c.JupyterHub.port = int(os.environ.get("NESSUS_HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(os.environ.get("NESSUS_HUB_API_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(os.environ.get('NESSUS_PROXY_API_PORT', '8001'))}"
c.ConfigurableHTTPProxy.pid_file = str(state / "jupyterhub-proxy.pid")
chp = Path(os.environ.get("NESSUS_CHP") or Path.home() / ".cache/nessus/chp/node_modules/.bin/configurable-http-proxy")
if chp.exists():
    c.ConfigurableHTTPProxy.command = [str(chp)]
c.JupyterHub.db_url = f"sqlite:///{state / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(state / "jupyterhub_cookie_secret")

c.JupyterHub.authenticator_class = "tmp"
c.Authenticator.allow_all = True
c.JupyterHub.active_server_limit = int(os.environ.get("NESSUS_HUB_MAX_STUDENTS", "0"))
c.JupyterHub.implicit_spawn_seconds = 0.01  # a stopped server restarts on the next visit, no button to press

spawner = os.environ.get("NESSUS_HUB_SPAWNER", "systemd")
args = [f"--config={here / 'jupyter_server_config.py'}"]
if spawner == "systemd":
    c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    c.SystemdSpawner.dynamic_users = True
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
    c.SystemdSpawner.disable_user_sudo = True
elif spawner == "simple":
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(state / "home" / "{username}")
    if os.geteuid() == 0:
        args.append("--allow-root")  # a trial as root: the servers run as root too
else:
    raise ValueError(f"NESSUS_HUB_SPAWNER must be systemd or simple; got {spawner!r}")

c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = args
c.Spawner.default_url = "/voila/tree"
c.Spawner.disable_user_config = True
c.Spawner.mem_limit = os.environ.get("NESSUS_HUB_MEM_LIMIT", "1G")
c.Spawner.cpu_limit = float(os.environ.get("NESSUS_HUB_CPU_LIMIT", "1"))
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120

c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={cull_after}",
            "--cull-every=60",
            "--cull-users=True",
        ],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers", "admin:users"],
        "services": ["idle-culler"],
    }
]

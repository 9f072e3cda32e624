"""A student's single-user Jupyter server under JupyterHub: Voila's pages of the dashboards, no code.

JupyterHub's spawner starts `jupyterhub-singleuser --config=<this file>` (see jupyterhub_config.py;
on Kubernetes, z2jh-values.yaml mounts it as /etc/jupyter/jupyter_server_config.py). What a
student can reach there:

- Voila's list of the dashboards (`/voila/tree`, where they land) and each dashboard
  (`/voila/render/<name>.ipynb`), its kernel started for the page;
- no code: the kernel websocket passes only the widgets' comm messages and kernel info (the
  messages Voila's own server allows), so neither a page's JavaScript console nor the REST API
  can run code in a kernel; no terminals; JupyterLab, the classic notebook and the language
  server are not loaded;
- reading only (StudentAuthorizer): the REST API answers GETs (the dashboards' notebooks, which
  are public anyway, a page's kernel), and refuses every write: no upload, rename or deletion of
  a file, no kernel started, restarted or stopped but by Voila's own pages.
"""

# ruff: noqa: F821 (`c` and `get_config` are given by traitlets to a config file)

from jupyter_server.auth import Authorizer
from voila.execute import VoilaExecutor

from nessus.kernels import install_channel_fix
from nessus.paths import DASHBOARDS
from nessus.serving import CULL_IDLE_TIMEOUT, CULL_INTERVAL, IOPUB_TIMEOUT


class StudentAuthorizer(Authorizer):
    """A student may read, and talk to a kernel over its websocket (the messages filtered below)."""

    def is_authorized(self, handler, user, action, resource) -> bool:
        """Whether the request may go on: a read, or a kernel's websocket."""
        return action == "read" or (action, resource) == ("execute", "kernels")


c = get_config()
c.ServerApp.authorizer_class = StudentAuthorizer

c.ServerApp.root_dir = str(DASHBOARDS)
c.ServerApp.terminals_enabled = False
c.ServerApp.jpserver_extensions = {
    "voila": True,
    "jupyterlab": False,
    "notebook": False,
    "notebook_shim": False,
    "jupyter_lsp": False,
    "jupyter_server_terminals": False,
    "solara.server.jupyter.server_extension": False,
}
c.MappingKernelManager.allowed_message_types = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]
c.MappingKernelManager.cull_interval = CULL_INTERVAL
c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_TIMEOUT
c.VoilaExecutor.iopub_timeout = IOPUB_TIMEOUT
c.ServerApp.tornado_settings = {"mathjax_url": None}  # no MathJax from a CDN (the dashboards need none)

install_channel_fix(VoilaExecutor)

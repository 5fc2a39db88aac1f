"""The deployment app for Python: ``python -m fw_deploy`` in a cdk.json.

Python finds plugins the Python way: every installed distribution that declares an entry point in the ``fw.plugins``
group, for example in its pyproject.toml::

    [project.entry-points."fw.plugins"]
    wiki = "wiki_plugin:WikiSpec"

Each entry point names a class constructed without arguments (as Java's ServiceLoader does). The plugins are handed
to the framework's deployment app, which adds its built-in plugins, reads the context keys and builds the one stack
they describe.
"""
import contextlib
import json
import os
import re
import sys
import typing
from importlib.metadata import distributions

ENTRY_POINT_GROUP = "fw.plugins"
# Set to 1, user_errors() re-raises, so the traceback shows (the framework's DEBUG_VARIABLE).
DEBUG_VARIABLE = "FW_DEBUG"


def plugins(contract_version: typing.Optional[str] = None) -> typing.List[typing.Any]:
    """One instance of every class registered in the ``fw.plugins`` entry-point group, in name order, each admitted by
    the framework against the plugin contract its distribution records (``fw_plugin.json`` in its metadata, which the
    plugin template writes): one built against a newer minor or another major is refused, naming both versions and
    the fix; one with no record loads, and its deployment warns. ``contract_version`` checks against another
    framework's contract: only the end-to-end test gives one (a framework one minor or one major newer)."""
    from fw_core import PluginContract
    found = []
    for entry, dist in sorted(_group(ENTRY_POINT_GROUP), key=lambda e: e[0].name):
        try:
            spec = entry.load()()
        except Exception as error:  # the user's registration is wrong: say which one
            raise PluginLoadError(f"entry point {entry.name!r} = {entry.value!r} in group {ENTRY_POINT_GROUP!r}: {error}") from error
        source = f"{entry.value} (distribution {dist.metadata['Name']} {dist.version})"
        PluginContract.admit(spec, source, _recorded_contract(dist, PluginContract.PYTHON_METADATA_FILE), contract_version)
        found.append(spec)
    return found


def _recorded_contract(dist, file_name: str) -> typing.Optional[str]:
    """The plugin contract a distribution records in its metadata, or None; a record without one is passed on as it
    is, for the framework to refuse naming it."""
    text = dist.read_text(file_name)
    if text is None:
        return None
    try:
        return json.loads(text).get("pluginContract", text.strip())
    except (ValueError, AttributeError):
        return text.strip()


def add_to(app):
    """Builds in ``app`` the stack its context keys describe, with the entry points' plugins and the built-in ones."""
    from fw_core import DeploymentApp
    return DeploymentApp.add_to(app, plugins=plugins())


class PluginLoadError(Exception):
    """An entry point of the ``fw.plugins`` group that names no class constructible without arguments."""


def _group(name):
    """Every entry point of the group with its distribution, each distribution once (the first on the path, as
    importlib finds it); read through the distributions, which Python 3.9's entry points do not name."""
    seen = set()
    for dist in distributions():
        key = (dist.metadata["Name"] or "").lower()
        if key in seen:
            continue
        seen.add(key)
        for entry in dist.entry_points:
            if entry.group == name:
                yield entry, dist


def user_message(error: BaseException) -> typing.Optional[str]:
    """The message of a mistake the user can fix, or None for a fault.

    The framework's UserError (a context key, a plugin) and a PRODUCTION compliance finding reach Python through the
    jsii runtime as a RuntimeError caused by a JavaScriptError whose text is the JavaScript stack, which starts with
    the error's name. From a static method the RuntimeError's own text is that name and message, then
    ``@jsii/kernel.RuntimeError:`` and the same again; from a constructor, the message alone.
    """
    if isinstance(error, PluginLoadError):
        return str(error)
    text = str(error).split("\n@jsii/kernel.RuntimeError: ")[0]
    if str(error.__cause__ or "").lstrip().startswith("UserError: "):
        return re.sub(r"^UserError: ", "", text).strip()
    match = re.match(r"^(?:UserError: |(?:\w*Error: )?(?=Validation failed))(.*)$", text, re.DOTALL)
    return match.group(1).strip() if match else None


@contextlib.contextmanager
def user_errors(program: str = "fw"):
    """Around a CDK app of your own: a mistake the user can fix is reported as its message and a one-line hint on
    standard error, exit status 1, instead of a traceback through the jsii runtime::

        with fw_deploy.user_errors():
            app = App()
            ApplicationFactory(Stack(app, "Wiki"), "App", RuntimeType.FARGATE, WikiSpec())
            app.synth()

    Any other exception, and every one while ``FW_DEBUG`` is set, propagates unchanged.
    """
    try:
        yield
    except Exception as error:
        message = user_message(error)
        if message is None or os.environ.get(DEBUG_VARIABLE):
            raise
        print(f"{program}: {message}", file=sys.stderr)
        print(f"{program}: (a mistake in the settings, not a fault: set {DEBUG_VARIABLE}=1 for the stack trace)", file=sys.stderr)
        sys.exit(1)


def main() -> None:
    from aws_cdk import App
    try:
        app = App()
        add_to(app)
        app.synth()
    except Exception as error:
        message = user_message(error)
        if message is None:
            raise
        print(f"fw-deploy: {message}", file=sys.stderr)
        sys.exit(1)

"""A non-editable wheel installs into a fresh venv and works from there."""

from __future__ import annotations

import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def test_wheel_installs_and_imports_in_a_fresh_venv(tmp_path):
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", tmp_path / "dist", ROOT],
        check=True,
        capture_output=True,
        text=True,
    )
    # every folder of data is declared: setuptools warns (50 lines) about one it would have to guess
    assert "absent from the `packages` configuration" not in build.stderr, build.stderr
    wheel = next((tmp_path / "dist").glob("mobile_gym-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        shipped = {Path(name).name for name in archive.namelist() if name.startswith("mobile_gym/tasks/sim/")}
    assert shipped == {p.name for p in (ROOT / "tasks" / "sim").glob("*.yaml")}
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    # dependencies come from the test environment; the project itself only from the wheel
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    deps = [p for p in {sysconfig.get_paths()["purelib"], *site.getsitepackages()} if "site-packages" in p]
    Path(purelib, "deps.pth").write_text("\n".join(deps) + "\n")
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel], check=True, capture_output=True)

    code = (
        "import mobile_gym, mobile_gym.wrappers, mobile_gym.agents, mobile_gym.tasks, mobile_gym.matcher\n"
        "from mobile_gym.matcher import AppRegistry\n"
        "assert 'site-packages' in mobile_gym.__file__, mobile_gym.__file__\n"
        "assert AppRegistry.bundled().packages('Microsoft Excel') == {'com.microsoft.office.excel'}\n"
        "from mobile_gym.tasks.catalogue import llamatouch_catalogue\n"
        "assert len(llamatouch_catalogue()) == 495\n"
        "from mobile_gym.simulator import SimulatedDevice\n"
        "SimulatedDevice(seed=0, setup={'launch': 'chrome'}).observe(screenshot_size=(90, 200))\n"
        "import pkgutil\n"
        "print(' '.join(sorted(m.name for m in pkgutil.walk_packages(mobile_gym.__path__, 'mobile_gym.') if m.ispkg)))\n"
    )
    out = subprocess.run([python, "-c", code], check=True, capture_output=True, text=True, cwd=tmp_path)
    folders = {"mobile_gym": ROOT / "mobile_gym", **{f"mobile_gym.{d}": ROOT / d for d in ("wrappers", "agents", "tasks")}}
    source = {".".join((prefix, *p.parent.relative_to(folder).parts))
              for prefix, folder in folders.items() for p in folder.rglob("__init__.py")} - {"mobile_gym"}
    assert set(out.stdout.split()) == source  # every subpackage made it into the wheel
    cli = subprocess.run([env_dir / "bin" / "mobile-gym", "evaluate", "--help"], capture_output=True, text=True, cwd=tmp_path)
    assert cli.returncode == 0 and "--dataset" in cli.stdout

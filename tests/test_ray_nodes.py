"""A batch spread over phones on several machines: a Ray cluster of three nodes on this
machine (Ray's own `cluster_utils.Cluster`), the head with no phone and two nodes each
declaring one loopback fake phone as ``phone:SERIAL``. The driver on the head finds the
phones from the cluster's resources, each phone's actor runs on the node that declares it,
and the traces written there come back to the driver whole."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from mobile_gym.devices.fake import FakePhoneServer  # noqa: E402
from mobile_gym.formats.agentenv import read_trace  # noqa: E402
from mobile_gym.runner import Job, run_batch  # noqa: E402
from mobile_gym.runner.batch import TRACES_DIR, trace_dir_name  # noqa: E402
from mobile_gym.runner.ray_pool import phone_resources  # noqa: E402
from fake_phones import count_actions  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]

SERIALS = ("emulator-5554", "emulator-5556")


@pytest.fixture(scope="module")
def nodes():
    """The head node's id and each phone's node id."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        phones = {serial: cluster.add_node(num_cpus=1, resources=phone_resources([serial])).node_id
                  for serial in SERIALS}
        ray.init(address=cluster.address, logging_level="WARNING")
        yield cluster.head_node.node_id, phones
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_each_phone_is_driven_on_its_node_and_traces_come_back_whole(nodes, tmp_path) -> None:
    head, phone_nodes = nodes
    assert ray.get_runtime_context().get_node_id() == head  # the driver's files are on no phone's node
    jobs = [Job("settings-turn-off-wifi", "oracle", seed) for seed in range(2)]
    with FakePhoneServer(serials=SERIALS, dynamics="default") as fake:
        taps = count_actions(fake, SERIALS)
        records = run_batch(jobs, tmp_path, env_kwargs={"backend": "device", "adb_port": fake.port},
                            devices=[{"serial": None}], executor="ray", save_traces=True)
    assert [r["error"] for r in records] == [None, None] and all(r["success"] for r in records)
    assert all(taps.values())  # both phones, so both phone nodes, worked
    for record in records:  # written on a phone's node, not the driver's: sent back packed
        folder = Path(tmp_path) / TRACES_DIR / trace_dir_name(record["task"], record["agent"], record["seed"])
        trace = read_trace(folder)
        assert len(trace.states) == record["steps"] + 1
    assert not (Path(tmp_path) / TRACES_DIR / ".partial").exists()

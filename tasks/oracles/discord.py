"""Oracles of Discord tasks: predicates on `phone.app_state("discord")`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mobile_gym.tasks.oracles import oracle

if TYPE_CHECKING:
    from mobile_gym.simulator import SimulatedDevice

MY_SERVER = "agentian's server"


def _state(phone: SimulatedDevice):
    return phone.app_state("discord")


def _server(phone: SimulatedDevice, name: str):
    return next((s for s in _state(phone).servers if s.name == name), None)


@oracle("discord.server_agent_env_created")
def _server_agent_env_created(phone: SimulatedDevice) -> bool:
    """A server named "Agent Env" has been created."""
    srv = _server(phone, "Agent Env")
    return srv is not None and srv.created


@oracle("discord.homework_from_study_group")
def _homework_from_study_group(phone: SimulatedDevice) -> bool:
    """A server "homework" created from the Study Group template, for me and my friends."""
    srv = _server(phone, "homework")
    return srv is not None and srv.created and srv.template == "Study Group" and srv.purpose == "friends"


@oracle("discord.joined_gaming")
def _joined_gaming(phone: SimulatedDevice) -> bool:
    return list(_state(phone).voice) == [MY_SERVER, "Gaming"]


@oracle("discord.hello_world_in_general")
def _hello_world_in_general(phone: SimulatedDevice) -> bool:
    srv = _server(phone, MY_SERVER)
    general = srv and next((c for c in srv.channels if c.name == "general" and c.kind == "text"), None)
    return bool(general) and any(m.author == "agentian" and m.text == "Hello World" for m in general.messages)


@oracle("discord.private_testbed_created")
def _private_testbed_created(phone: SimulatedDevice) -> bool:
    srv = _server(phone, MY_SERVER)
    return srv is not None and any(c.name == "testbed" and c.kind == "text" and c.private for c in srv.channels)


@oracle("discord.lobby_deleted")
def _lobby_deleted(phone: SimulatedDevice) -> bool:
    srv = _server(phone, MY_SERVER)
    return (srv is not None and not any(c.name == "Lobby" for c in srv.channels)
            and any(c.name == "Gaming" for c in srv.channels))


@oracle("discord.invite_link_copied")
def _invite_link_copied(phone: SimulatedDevice) -> bool:
    return _state(phone).invite_copied


@oracle("discord.customize_experience_off")
def _customize_experience_off(phone: SimulatedDevice) -> bool:
    return not _state(phone).customize_experience


@oracle("discord.dm_spam_not_filtered")
def _dm_spam_not_filtered(phone: SimulatedDevice) -> bool:
    return _state(phone).dm_spam_filter == "Do not filter direct messages"


@oracle("discord.status_working_one_hour")
def _status_working_one_hour(phone: SimulatedDevice) -> bool:
    s = _state(phone)
    return s.custom_status.lower() == "working" and s.clear_after == "1 hour"


@oracle("discord.latest_photo_server_icon")
def _latest_photo_server_icon(phone: SimulatedDevice) -> bool:
    s = _state(phone)
    srv = _server(phone, MY_SERVER)
    return srv is not None and bool(s.photos) and srv.icon == s.photos[0]


@oracle("discord.server_dms_off")
def _server_dms_off(phone: SimulatedDevice) -> bool:
    return not _state(phone).allow_server_dms


@oracle("discord.avatar_uploaded")
def _avatar_uploaded(phone: SimulatedDevice) -> bool:
    s = _state(phone)
    return bool(s.avatar) and s.avatar in s.photos


@oracle("discord.first_notification_viewed")
def _first_notification_viewed(phone: SimulatedDevice) -> bool:
    s = _state(phone)
    return bool(s.notifications) and s.opened_notification == s.notifications[0].id


@oracle("discord.homework_dms_on")
def _homework_dms_on(phone: SimulatedDevice) -> bool:
    srv = _server(phone, "homework")
    return srv is not None and srv.allow_dms


@oracle("discord.notification_settings_opened")
def _notification_settings_opened(phone: SimulatedDevice) -> bool:
    return "notification_settings" in _state(phone).visited


@oracle("discord.agent_env_settings_opened")
def _agent_env_settings_opened(phone: SimulatedDevice) -> bool:
    return "server_settings:Agent Env" in _state(phone).visited


@oracle("discord.friend_request_settings_opened")
def _friend_request_settings_opened(phone: SimulatedDevice) -> bool:
    return "friend_requests" in _state(phone).visited

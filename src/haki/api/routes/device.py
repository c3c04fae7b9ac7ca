"""Device-code login for terminals (``haki login``): start, poll, and approval.

``start`` and ``poll`` take no key (the terminal has none yet: that is the
point), so they are limited per client address (``HAKI_DEVICE_START_PER_MINUTE``,
``HAKI_DEVICE_POLL_PER_MINUTE``; pending logins per address in
``auth.device``): one address cannot lock the login out for others.
``approve`` is called by a signed-in person, from the console, and binds the
login to the project of their key.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ...auth import device
from ..auth import PrincipalDep, client_address, limit_per_address
from ..deps import DbDep, StateDep
from ..openapi import errors
from .keys import DEFAULT_ORG

router = APIRouter(tags=["keys"])


class DeviceStartOut(BaseModel):
    device_code: str = Field(description="Secret of the terminal: poll with it")
    user_code: str = Field(description="Short code the person confirms in the console")
    verification_uri: str = Field(description="The console page where the person approves")
    verification_uri_complete: str = Field(description="The console page with the code filled in")
    expires_in: int = Field(description="Seconds the codes stay valid")
    interval: int = Field(description="Seconds to wait between polls")


class DevicePollIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"device_code": "Zt0rX2dY7vQ"}]}
    )
    device_code: str = Field(min_length=1, max_length=256, description="From the start answer")


class DevicePollOut(BaseModel):
    status: Literal["pending", "approved", "expired"]
    api_key: str | None = Field(
        default=None, description="The new key, in the one 'approved' answer only"
    )
    org_id: str | None = None
    project_id: str | None = None


class DeviceApproveIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"project_id": "demo", "user_code": "BCDF-GHJK"}]},
    )
    user_code: str = Field(min_length=1, max_length=32, description="The code the terminal shows")
    project_id: str | None = Field(default=None, min_length=1, max_length=128)
    label: str | None = Field(default=None, max_length=200)


class DeviceApproveOut(BaseModel):
    status: Literal["approved"] = "approved"
    project_id: str


@router.post("/v1/cli/device/start")
async def device_start(request: Request, db: DbDep, state: StateDep) -> DeviceStartOut:
    """A new login for a terminal; show ``user_code`` and open ``verification_uri_complete``.

    Limited per client address: calls per minute, and logins waiting at once."""
    await limit_per_address(request, "device start", state.settings.device_start_per_minute)
    started = await device.start(db, device.client_ref(client_address(request)))
    page = str(request.base_url).rstrip("/") + "/console/device"
    return DeviceStartOut(
        device_code=started.device_code,
        user_code=started.user_code,
        verification_uri=page,
        verification_uri_complete=f"{page}?user_code={started.user_code}",
        expires_in=started.expires_in,
        interval=started.interval,
    )


@router.post("/v1/cli/device/poll")
async def device_poll(
    request: Request, body: DevicePollIn, db: DbDep, state: StateDep
) -> DevicePollOut:
    """``pending`` until approved; then ``approved`` with a new key, once; ``expired`` after.

    Limited per client address (calls per minute)."""
    await limit_per_address(request, "device poll", state.settings.device_poll_per_minute)
    polled = await device.poll(db, body.device_code)
    return DevicePollOut(
        status=polled.status,  # type: ignore[arg-type]
        api_key=polled.api_key,
        org_id=polled.org_id,
        project_id=polled.project_id,
    )


@router.post("/v1/cli/device/approve", responses=errors(404))
async def device_approve(
    body: DeviceApproveIn, db: DbDep, principal: PrincipalDep
) -> DeviceApproveOut:
    """Approve a waiting login for the caller's project: its terminal then gets a key of it."""
    project = principal.project(body.project_id)
    await device.approve(
        db,
        user_code=body.user_code,
        project_id=project,
        org_id=principal.org_id or DEFAULT_ORG,
        label=body.label or "haki login",
    )
    return DeviceApproveOut(project_id=project)

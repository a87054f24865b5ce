"""`ScreenPixels`: the screenshot alone, at a CNN's input size, for policies that learn
from pixels (Stable-Baselines3's ``CnnPolicy``).

The env's observation is a Dict (screenshot, dump, instruction) that an image policy
cannot take. This keeps the screenshot, shrinks it to ``size`` by area averaging
(Pillow's BOX filter: every pixel counts once, so thin text and lines do not vanish
between samples, at 0.5 ms for 270x600 to 84x84 where BILINEAR takes 0.8), optionally in
grey, and lays it out as SB3 expects an image: uint8, 0 to 255, with a channel axis
(one channel in grey), channels last unless asked otherwise.

The env draws its screenshot at its ``observation_size`` (a quarter of the screen by
default) before this shrinks it, and drawing is most of a step's cost. A smaller
``observation_size`` is cheaper: ``gym.make(id, observation_size=(84, 84))`` has the
simulator draw the frame at ``size`` itself (nothing is resampled here): a step of the
pixel preset takes 0.7 ms instead of 2. But at that scale it leaves out text, which
area averaging keeps as grey marks that tell rows apart; an eighth of the screen,
(135, 300) on the default profile, is in between. Only ``gym.make`` can choose: a wrapper gets the env already made.
"""

from __future__ import annotations

import numbers
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from mobile_gym.errors import ConfigError
from mobile_gym.spaces import ImageBox

#: Largest side, in pixels, of the observation: far above any CNN's input.
MAX_SIDE = 4096

#: The resampling filter: area averaging, which neither aliases when shrinking nor blurs
#: when growing.
RESAMPLE = Image.Resampling.BOX


class ScreenPixels(gym.ObservationWrapper, gym.utils.RecordConstructorArgs):
    """Observe only the screenshot, resized to ``size`` = (width, height): uint8 of shape
    (height, width, channels), channels 3 (RGB) or 1 (``grayscale``, Pillow's "L"
    conversion); (channels, height, width) when ``channels_first``.

    >>> import gymnasium as gym, mobile_gym
    >>> from mobile_gym.wrappers import ScreenPixels
    >>> env = ScreenPixels(gym.make("LlamaTouch/settings-open-v0"), size=(64, 48), grayscale=True)
    >>> obs, info = env.reset(seed=0)
    >>> env.observation_space, obs.shape, obs.dtype
    (Box(0, 255, (48, 64, 1), uint8), (48, 64, 1), dtype('uint8'))
    """

    def __init__(self, env: gym.Env, size: tuple[int, int] = (84, 84), grayscale: bool = False,
                 channels_first: bool = False):
        width, height = _check_size(size)
        for name, value in (("grayscale", grayscale), ("channels_first", channels_first)):
            if not isinstance(value, (bool, np.bool_)):
                raise ConfigError(f"{name} must be True or False, got {value!r}")
        screenshot = getattr(env.observation_space, "spaces", {}).get("screenshot")
        if screenshot is None or len(screenshot.shape) != 3:
            raise ConfigError(f"ScreenPixels needs an env observing a Dict with an RGB 'screenshot'; "
                              f"got {env.observation_space}")
        gym.utils.RecordConstructorArgs.__init__(self, size=(width, height), grayscale=bool(grayscale),
                                                 channels_first=bool(channels_first))
        gym.ObservationWrapper.__init__(self, env)
        self.size = (width, height)
        self.grayscale = bool(grayscale)
        self.channels_first = bool(channels_first)
        self._resize = tuple(screenshot.shape[:2]) != (height, width)  # else the env drew it at size
        channels = 1 if self.grayscale else 3
        self.observation_space = ImageBox((channels, height, width) if self.channels_first
                                          else (height, width, channels))

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        frame = observation["screenshot"]
        if self._resize or self.grayscale:
            image = Image.fromarray(frame)
            if self._resize:
                image = image.resize(self.size, RESAMPLE)
            if self.grayscale:
                image = image.convert("L")
            frame = np.array(image)  # writable, unlike np.asarray's view of Pillow's bytes
        if self.grayscale:
            frame = frame[..., None]
        if self.channels_first:
            frame = np.ascontiguousarray(frame.transpose(2, 0, 1))
        return frame


def _check_size(size: Any) -> tuple[int, int]:
    """``size`` as (width, height) in whole pixels from 1 to `MAX_SIDE`, or a `ConfigError`."""
    try:
        width, height = size
    except (TypeError, ValueError):
        raise ConfigError(f"size must be (width, height) in whole pixels, got {size!r}") from None
    if not all(isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) for v in (width, height)):
        raise ConfigError(f"size must be (width, height) in whole pixels, got {size!r}")
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ConfigError(f"size={size!r}: each side must be from 1 to {MAX_SIDE} pixels")
    return int(width), int(height)

"""`ScreenPixels`: the screenshot alone, at a CNN's input size, for policies that learn
from pixels (Stable-Baselines3's ``CnnPolicy``).

The env's observation is a Dict (screenshot, dump, instruction) that an image policy
cannot take. This keeps the screenshot, shrinks it to ``size`` by area averaging (every
pixel counts once, so thin text and lines do not vanish between samples), optionally in
grey, and lays it out as SB3 expects an image: uint8, 0 to 255, with a channel axis
(one channel in grey), channels last unless asked otherwise.

The env draws its screenshot at its ``observation_size`` (a quarter of the screen by
default), and drawing is most of a step's cost. When that size is a whole multiple of
``size`` each way, shrinking averages whole blocks of pixels (Pillow's ``reduce``,
0.1 ms from 168x336 to 84x84) instead of resampling (0.5 ms from the default 270x600):
`drawing_size` is such a multiple, and `mobile_gym.policy_env`'s pixel preset has the
env draw at it. ``gym.make(id, observation_size=(84, 84))`` would have
the simulator draw at ``size`` itself, but at that scale text is left out, which
averaging keeps as grey marks that tell rows apart. An env made with ``grayscale=True``
(one channel, converted at its drawing size) takes ``grayscale=True`` here too.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image

from mobile_gym.env import default_observation_size
from mobile_gym.errors import ConfigError
from mobile_gym.spaces import ImageBox

#: The observation's (width, height) unless told: the Atari-DQN size SB3's CnnPolicy is made for.
DEFAULT_SIZE = (84, 84)

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

    def __init__(self, env: gym.Env, size: tuple[int, int] = DEFAULT_SIZE, grayscale: bool = False,
                 channels_first: bool = False):
        width, height = _check_size(size)
        for name, value in (("grayscale", grayscale), ("channels_first", channels_first)):
            if not isinstance(value, (bool, np.bool_)):
                raise ConfigError(f"{name} must be True or False, got {value!r}")
        screenshot = getattr(env.observation_space, "spaces", {}).get("screenshot")
        shape = getattr(screenshot, "shape", None) or ()
        if len(shape) != 3 or shape[2] not in (1, 3):
            raise ConfigError(f"ScreenPixels needs an env observing a Dict with a 'screenshot' (gym.make(..., "
                              f"observation='both' or 'screenshot')); got {env.observation_space}")
        grey_input = shape[2] == 1
        if grey_input and not grayscale:
            raise ConfigError("the env observes grey screenshots (grayscale=True): ScreenPixels cannot give "
                              "colour from them; pass grayscale=True here too, or make the env in colour")
        gym.utils.RecordConstructorArgs.__init__(self, size=(width, height), grayscale=bool(grayscale),
                                                 channels_first=bool(channels_first))
        gym.ObservationWrapper.__init__(self, env)
        self.size = (width, height)
        self.grayscale = bool(grayscale)
        self.channels_first = bool(channels_first)
        self._grey_input = grey_input  # the env converted to grey already (at its drawing size)
        self._resize = tuple(screenshot.shape[:2]) != (height, width)  # else the env drew it at size
        drawn_height, drawn_width = screenshot.shape[:2]
        whole = drawn_width % width == 0 and drawn_height % height == 0
        # (columns, rows) of the blocks averaged into one pixel, when the drawing is a multiple
        self._blocks = (drawn_width // width, drawn_height // height) if self._resize and whole else None
        channels = 1 if self.grayscale else 3
        self.observation_space = ImageBox((channels, height, width) if self.channels_first
                                          else (height, width, channels))

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        frame = observation["screenshot"]
        if self._resize or (self.grayscale and not self._grey_input):
            image = Image.fromarray(frame.reshape(frame.shape[:2]) if self._grey_input else frame)
            if self._blocks:
                image = image.reduce(self._blocks)
            elif self._resize:
                image = image.resize(self.size, RESAMPLE)
            if image.mode != "L" and self.grayscale:
                image = image.convert("L")
            frame = np.array(image)  # writable, unlike np.asarray's view of Pillow's bytes
            if self.grayscale:
                frame = frame[..., None]
        if self.channels_first:
            frame = np.ascontiguousarray(frame.transpose(2, 0, 1))
        return frame


def drawing_size(size: Any, screen: tuple[int, int]) -> tuple[int, int] | None:
    """The screenshot size for an env to draw at so that `ScreenPixels` of ``size``
    averages whole blocks: the whole multiple of ``size`` each way that reaches half the
    env's default (a quarter of the ``screen``), or None when ``size`` is larger than the
    screen (then the default is scaled up). At 84x84 what it draws averages to the same
    image as the default does (rows' icons and grey marks of text), at half the cost.

    >>> drawing_size((84, 84), (1080, 2400))   # the default would be (270, 600)
    (168, 336)
    """
    width, height = _check_size(size)
    if width > screen[0] or height > screen[1]:
        return None
    default = default_observation_size(screen)
    return (width * max(1, min(math.ceil(default[0] / (2 * width)), screen[0] // width)),
            height * max(1, min(math.ceil(default[1] / (2 * height)), screen[1] // height)))


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

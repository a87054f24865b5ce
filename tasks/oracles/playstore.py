"""Oracles of Play Store tasks."""

from __future__ import annotations

"""Oracles of Clock tasks."""

from __future__ import annotations

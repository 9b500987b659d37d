"""Importers and exporters: bring the user's existing notes, cards and records in, and out."""

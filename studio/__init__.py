"""ML Infra Studio: a study and interview companion for ML-systems engineers."""

__version__ = "0.1.0"

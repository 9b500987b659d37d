"""Alembic environment: migrations run programmatically on the app's own connection."""

from alembic import context

from studio.core.db import include_name
from studio.core.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=True,
        include_name=include_name,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()

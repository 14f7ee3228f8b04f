"""The AI worker: answers the backend's decision queries over /ws/ai (`showdown worker`)."""

from ai.worker.client import Backoff, WorkerClient, ai_socket_url
from ai.worker.decider import Decider

__all__ = ["Backoff", "Decider", "WorkerClient", "ai_socket_url"]

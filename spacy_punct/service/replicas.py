"""The service scaled out on Ray Serve (the `ray` extra): the same
application (`app.create_app`) in `replicas` Ray actors, each loading the
pipelines once, behind Ray Serve's HTTP proxy; on this machine, or on the
cluster that `RAY_ADDRESS` names."""

from typing import Any, Sequence

from .app import ServiceLimits


def service_deployment(models: Sequence[str], limits: ServiceLimits, replicas: int, threads: int) -> Any:
    """The Ray Serve application: a deployment of `replicas` replicas, each
    with the pipelines loaded on `threads` torch threads."""
    from ray import serve

    models = list(models)

    def build() -> Any:  # run on each replica
        from ..pipelines.loading import load_pipeline
        from .app import create_app

        return create_app(models, lambda name: load_pipeline(name, threads=threads), limits, load_now=True)

    deploy = serve.deployment(name="spacy-punct", num_replicas=replicas, ray_actor_options={"num_cpus": threads})
    return deploy(serve.ingress(build)()).bind()


def serve_on_ray(
    models: Sequence[str], limits: ServiceLimits, *, replicas: int, threads: int, host: str, port: int
) -> None:
    """Run the service on Ray Serve until interrupted (Ctrl-C or SIGTERM)."""
    import ray
    from ray import serve

    ray.init(ignore_reinit_error=True, log_to_driver=False)  # RAY_ADDRESS: a cluster
    serve.start(http_options={"host": host, "port": port})
    try:
        serve.run(
            service_deployment(models, limits, replicas, threads), name="spacy-punct", route_prefix="/", blocking=True
        )
    finally:
        serve.shutdown()

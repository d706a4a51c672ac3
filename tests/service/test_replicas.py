"""The service on Ray Serve: the application and its replicas."""

import pytest

from spacy_punct.service.app import ServiceLimits


def test_ray_serve_deployment_has_its_replicas():
    pytest.importorskip("ray.serve")
    from spacy_punct.service.replicas import service_deployment

    application = service_deployment(["en_punct_sm"], ServiceLimits(), replicas=3, threads=1)
    deployment = application._bound_deployment  # the deployment the application runs
    assert deployment.name == "spacy-punct" and deployment.num_replicas == 3

# Test fixture (written for ML Infra Studio).


def forward(x):
    return x * x


def backward(x, grad):
    return 2 * x * grad

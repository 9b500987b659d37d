# Deliberately wrong (ML Infra Studio), for GPU MODE's amd/identity: copies every element
# but the last one (the problem's template is the correct copy).


def custom_kernel(data):
    source, output = data
    output[:-1] = source[:-1]
    return output

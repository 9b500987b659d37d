from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    x, out = data
    out[0] = x.sum()
    return out

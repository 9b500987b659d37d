input_t = tuple
output_t = object

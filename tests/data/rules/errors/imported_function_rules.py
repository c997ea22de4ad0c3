# A pair of torch's own functions, imported, not functions of the file: "relu -> gelu".
from torch.nn.functional import gelu, relu

RULES = [(relu, gelu)]

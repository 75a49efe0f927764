import argparse
p.add_argument("--bs", default=8)
m = AutoModel.from_pretrained("x")

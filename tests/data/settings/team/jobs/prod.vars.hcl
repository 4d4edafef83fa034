image = "nvcr.io/nvidia/tritonserver:24.05-py3"
gpus  = 2

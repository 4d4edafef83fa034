gpus = 4

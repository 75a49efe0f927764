#!/bin/bash
#SBATCH --gres=gpu:1
# ResNet-101 on ImageNet: the job the e2e test injects a GPU fault under.
python3 train.py --model resnet101 --dataset imagenet --max-steps 40 --batch-size 64

#!/bin/bash
#SBATCH --gres=gpu:1
# ResNet-50 on ImageNet, the job the e2e test submits (also under other names).
python3 train.py --model resnet50 --dataset imagenet --max-steps 40 --batch-size 64

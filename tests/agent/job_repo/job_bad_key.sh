#!/bin/bash
#SBATCH --gres=gpu:1
# ViT-B/16 on CIFAR-100 with a typo in the label field: a user error.
python3 train.py --model vit_b_16 --dataset cifar100 --max-steps 40 --batch-size 128 --label-key labels

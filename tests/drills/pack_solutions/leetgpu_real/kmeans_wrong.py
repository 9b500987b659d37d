# Deliberately wrong (ML Infra Studio), for LeetGPU's hard/20_kmeans_clustering: the
# centroids are right, but the labels written are those of the first round (to the initial
# centroids), not the last one (one of the three outputs is off).
import torch


def solve(data_x, data_y, labels, initial_centroid_x, initial_centroid_y, final_centroid_x,
          final_centroid_y, sample_size: int, k: int, max_iterations: int):
    cx, cy = initial_centroid_x.clone(), initial_centroid_y.clone()
    for round_ in range(max_iterations):
        distance = (data_x[:, None] - cx[None, :]) ** 2 + (data_y[:, None] - cy[None, :]) ** 2
        nearest = distance.argmin(dim=1)
        if round_ == 0:
            labels.copy_(nearest)
        count = torch.zeros(k, device=data_x.device).index_add_(0, nearest, torch.ones_like(data_x))
        sum_x = torch.zeros(k, device=data_x.device).index_add_(0, nearest, data_x)
        sum_y = torch.zeros(k, device=data_x.device).index_add_(0, nearest, data_y)
        cx = torch.where(count > 0, sum_x / count.clamp_min(1), cx)
        cy = torch.where(count > 0, sum_y / count.clamp_min(1), cy)
    final_centroid_x.copy_(cx)
    final_centroid_y.copy_(cy)

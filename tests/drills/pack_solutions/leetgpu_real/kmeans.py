# Our own PyTorch solution, in LeetGPU's form, of its public challenge hard/20_kmeans_clustering
# (three outputs: labels, final_centroid_x, final_centroid_y). Each of max_iterations rounds
# labels every point with its nearest centroid (squared distance; the lower index on a tie),
# then moves each centroid to the mean of its points (a centroid with none stays).
import torch


def solve(data_x, data_y, labels, initial_centroid_x, initial_centroid_y, final_centroid_x,
          final_centroid_y, sample_size: int, k: int, max_iterations: int):
    cx, cy = initial_centroid_x.clone(), initial_centroid_y.clone()
    for _ in range(max_iterations):
        distance = (data_x[:, None] - cx[None, :]) ** 2 + (data_y[:, None] - cy[None, :]) ** 2
        nearest = distance.argmin(dim=1)
        labels.copy_(nearest)
        count = torch.zeros(k, device=data_x.device).index_add_(0, nearest, torch.ones_like(data_x))
        sum_x = torch.zeros(k, device=data_x.device).index_add_(0, nearest, data_x)
        sum_y = torch.zeros(k, device=data_x.device).index_add_(0, nearest, data_y)
        cx = torch.where(count > 0, sum_x / count.clamp_min(1), cx)
        cy = torch.where(count > 0, sum_y / count.clamp_min(1), cy)
    final_centroid_x.copy_(cx)
    final_centroid_y.copy_(cy)

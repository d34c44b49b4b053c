"""Small PyTorch models for the export tests: a CRNN (conv + bidirectional LSTM text
recognizer), a YOLO-style detector, and models that show the classic export mistakes."""

import torch
from torch import nn
from torch.nn import functional as F


class CRNN(nn.Module):
    """Conv features -> columns as a sequence -> 2-layer bidirectional LSTM -> per-column classes."""

    def __init__(self, classes=11):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d((2, 1)))
        self.rnn = nn.LSTM(32 * 4, 32, num_layers=2, bidirectional=True, batch_first=True)
        self.head = nn.Linear(64, classes)

    def forward(self, image):
        f = self.features(image)                       # [N, 32, 4, W/2]
        seq = f.permute(0, 3, 1, 2).flatten(2)          # [N, W/2, 128]
        out, _ = self.rnn(seq)
        return self.head(out).log_softmax(-1)


def _conv(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.SiLU())


class TinyYolo(nn.Module):
    """A YOLO-style detector: strided backbone, an upsampling neck (FPN) and a head per
    scale, boxes decoded in the graph (sigmoid, grid offsets, anchors) and concatenated."""

    def __init__(self, classes=3, anchors=((10, 13), (16, 30), (33, 23))):
        super().__init__()
        self.classes = classes
        self.register_buffer("anchors", torch.tensor(anchors, dtype=torch.float32).view(1, -1, 1, 1, 2))
        self.stem = nn.Sequential(_conv(3, 16, 2), _conv(16, 32, 2), _conv(32, 32, 2))   # /8
        self.down = nn.Sequential(_conv(32, 64, 2))                                    # /16
        self.lateral = _conv(64, 32)
        self.fuse = _conv(64, 32)
        outputs = len(anchors) * (5 + classes)
        self.head8, self.head16 = nn.Conv2d(32, outputs, 1), nn.Conv2d(64, outputs, 1)

    def decode(self, p, stride):
        n, _, h, w = p.shape
        p = p.view(n, self.anchors.shape[1], 5 + self.classes, h, w).permute(0, 1, 3, 4, 2).sigmoid()
        ys, xs = torch.meshgrid(torch.arange(h, dtype=p.dtype), torch.arange(w, dtype=p.dtype), indexing="ij")
        grid = torch.stack((xs, ys), -1).view(1, 1, h, w, 2)
        xy = (p[..., :2] * 2 - 0.5 + grid) * stride
        wh = (p[..., 2:4] * 2) ** 2 * self.anchors
        return torch.cat((xy, wh, p[..., 4:]), -1).view(n, -1, 5 + self.classes)

    def forward(self, images):
        c8 = self.stem(images)
        c16 = self.down(c8)
        up = F.interpolate(self.lateral(c16), scale_factor=2.0, mode="nearest")
        p8 = self.fuse(torch.cat((c8, up), 1))
        return torch.cat((self.decode(self.head8(p8), 8), self.decode(self.head16(c16), 16)), 1)


class BatchAsPythonInt(nn.Module):
    """int(h.size(0)): the batch size traced as a constant inside the graph."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x):
        h = self.conv(x)
        return h.reshape(int(h.size(0)), -1).mean(-1)


class BilinearUp(nn.Module):
    """Bilinear upsampling with align_corners=False (half-pixel centres)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        return F.interpolate(self.conv(x), scale_factor=2.0, mode="bilinear", align_corners=False)


class GridSampler(nn.Module):
    def forward(self, x, grid):
        return F.grid_sample(x, grid, align_corners=False)


def crnn():
    return CRNN().eval()


def tiny_yolo():
    return TinyYolo().eval()

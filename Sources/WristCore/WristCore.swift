// WristCore app layer: composition root.

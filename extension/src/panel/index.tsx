// The panel app mounts here (placeholder until the panel lands).

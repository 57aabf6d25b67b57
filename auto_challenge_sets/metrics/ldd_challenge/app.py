import sys

import evaluate
from evaluate.utils import launch_gradio_widget

# As evaluate's own Space apps do: load the module by name, not from the app's folder on sys.path.
sys.path = [p for p in sys.path if p != "/home/user/app"]
module = evaluate.load("ldd_challenge")
sys.path = ["/home/user/app"] + sys.path

launch_gradio_widget(module)

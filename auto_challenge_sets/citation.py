"""BibTeX of the method, for the dataset builder's info and the metric's card."""

CHOSHEN_ABEND_2019 = """\
@inproceedings{choshen-abend-2019-automatically,
    title = "Automatically Extracting Challenge Sets for Non-Local Phenomena in Neural Machine Translation",
    author = "Choshen, Leshem and Abend, Omri",
    booktitle = "Proceedings of the 23rd Conference on Computational Natural Language Learning (CoNLL)",
    month = nov,
    year = "2019",
    address = "Hong Kong, China",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/K19-1028",
    doi = "10.18653/v1/K19-1028",
    pages = "291--303",
}
"""
